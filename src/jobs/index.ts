/** What other modules use of the jobs module. */
export { createJobs, repeatingJob, type Job } from './jobs.ts';
