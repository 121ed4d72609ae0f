import { UnrecoverableError, type Job } from 'bullmq';

/**
 * Whether a job's failure is its last: its attempts are spent, or the failure is an
 * UnrecoverableError, final whatever attempts remain. Otherwise BullMQ retries it after a backoff.
 */
export function isFinalFailure(job: Job, error: Error): boolean {
  return error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
}
