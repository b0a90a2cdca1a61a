/** What other modules use of the jobs module. */
export { askedJob, createJobs, repeatingJob, untilDone, type Job } from './jobs.ts';
