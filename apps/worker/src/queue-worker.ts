import type { Logger } from '@nestjs/common';
import type { AppConfig } from '#app/config';
import {
  closeRedisConnection,
  createRedisConnection,
  isFinalFailure,
  type RedisConnection,
} from '#app/contracts';
import { isNotConnectionError, Worker, type Job, type WorkerOptions } from 'bullmq';
import { hostname } from 'node:os';

/** One queue's worker as a host runs it: what it runs and how it reports each job. */
export interface QueueWorkerSpec<Data, Result extends { outcome: string }> {
  queue: string;
  /** Names the worker in its error lines ("<name> worker: ..."). */
  name: string;
  /** Names its Redis connection in that connection's log lines. */
  connectionName: string;
  /** Names a job in log lines: "<noun> done", "<noun> failed for good", "<noun> will be retried". */
  noun: string;
  options: Omit<WorkerOptions, 'connection' | 'prefix'>;
  run: (job: Job<Data, Result>) => Promise<Result>;
  /**
   * Counts a job that ended: its result's outcome, or `failed` or `retrying` (a queue whose jobs
   * hold many items counts them in `run` instead).
   */
  count?: (job: Job<Data, Result>, outcome: string) => void;
  /** What else a job failed for good calls for, once it is in the failed list. */
  failedForGood?: (job: Job<Data, Result>, error: Error) => Promise<void>;
  /** What a job's log lines say of it: never a secret or a record's content. */
  fields: (job: Job<Data, Result>) => Record<string, unknown>;
}

/** How a job names the process that took it: `<host>:<pid>`. */
const processName = () => `${hostname()}:${process.pid}`;

/**
 * A BullMQ worker as every queue of this service runs one: on a connection of its own whose
 * blocking commands wait out a Redis outage, each job counted and logged once it ends (a final
 * failure as a warning), and drained on shutdown within the grace time.
 */
export class QueueWorker<Data, Result extends { outcome: string }> {
  private connection?: RedisConnection;
  private worker?: Worker<Data, Result>;

  constructor(
    private readonly config: AppConfig,
    private readonly logger: Logger,
    private readonly spec: QueueWorkerSpec<Data, Result>,
  ) {}

  start(): void {
    const { spec } = this;
    // Blocking commands of a worker must wait out a Redis outage instead of failing.
    this.connection = createRedisConnection(this.config.redis, spec.connectionName, {
      maxRetriesPerRequest: null,
    });
    this.worker = new Worker<Data, Result>(spec.queue, spec.run, {
      ...spec.options,
      // Stored on each job it takes (processedBy): which process holds or held a job.
      name: processName(),
      connection: this.connection,
      prefix: this.config.redis.queuePrefix,
    });
    this.worker.on('completed', (job, result) => {
      spec.count?.(job, result.outcome);
      this.logger.log({ ...spec.fields(job), outcome: result.outcome }, `${spec.noun} done`);
    });
    this.worker.on('failed', (job, error) => {
      if (!job) return;
      // An invalid record or a conflict is an UnrecoverableError: final at once.
      const outcome = isFinalFailure(job, error) ? 'failed' : 'retrying';
      spec.count?.(job, outcome);
      const fields = {
        ...spec.fields(job),
        outcome,
        attempt: job.attemptsMade,
        reason: error.message,
      };
      if (outcome === 'failed') {
        this.logger.warn(fields, `${spec.noun} failed for good`);
        spec.failedForGood?.(job, error).catch((failure: unknown) => {
          this.logger.error(`${spec.name} worker: ${(failure as Error).message}`);
        });
      } else this.logger.log(fields, `${spec.noun} will be retried`);
    });
    // An unreachable Redis is reported once by the connection itself, not at every retry.
    this.worker.on('error', (error) => {
      if (isNotConnectionError(error)) this.logger.error(`${spec.name} worker: ${error.message}`);
    });
  }

  /** Takes no job for `ms` (BullMQ's manual rate limit); throw Worker.RateLimitError() next. */
  async pauseFor(ms: number): Promise<void> {
    await this.worker?.rateLimit(ms);
  }

  /**
   * Stops taking jobs and waits for the ones in flight, for at most the grace time; a job still
   * running then is left to BullMQ's stalled-job check, which hands it to another worker.
   */
  async stop(): Promise<void> {
    if (this.worker) {
      const worker = this.worker;
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'timeout'>((done) => {
        timer = setTimeout(() => done('timeout'), this.config.shutdownGraceMs);
      });
      // pause() stops taking jobs at once and resolves when the running ones have finished.
      const drained = await Promise.race([
        worker.pause().then(() => 'drained' as const),
        graceOver,
      ]);
      clearTimeout(timer);
      if (drained === 'timeout') {
        this.logger.warn('shutdown grace time over: leaving unfinished jobs to other workers');
      }
      // The first close decides: forced, it waits for nothing (an unfinished job's lock expires
      // and the stalled-job check hands it to another worker).
      await worker.close(true);
    }
    if (this.connection) await closeRedisConnection(this.connection);
  }
}
