/** What other modules use of the jobs module. */
export { askedJob, createJobs, repeatingJob, type Job } from './jobs.ts';
