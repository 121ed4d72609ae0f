/**
 * I0, the floor of queued ingestion: BullMQ and PostgreSQL with nothing of ours in between.
 * The records are added with `addBulk` in batches of 1,000, several batches at once (as the
 * ingestion scenario posts them), and a BullMQ Worker in its own process drains them into one
 * table: the processor calls of many concurrent jobs are gathered into one multi-row INSERT,
 * and each job completes when the INSERT that holds its row has committed. No validation, no
 * reads, no events, no projections: what is left between I0 and the service is the service's
 * own work.
 *
 * The figure is records/s end to end: from the first addBulk until every row is in the table.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ingestJobId } from '#app/contracts';
import type { IngestRecord } from '#app/domain';
import type { BenchEnvironment } from '../support/environment.js';
import { peakRssMb, ROOT } from '../support/service.js';

/** Jobs in flight in the worker: enough to fill a large INSERT while the last one commits. */
const CONCURRENCY = 200;
/** Rows per INSERT at most; a smaller INSERT leaves when the jobs in hand stop arriving. */
const FLUSH_ROWS = 100;
/** How long the first job of a partial INSERT waits for company. */
const FLUSH_DELAY_MS = 2;
/** INSERTs in flight (connections of the worker's pool). */
const WRITERS = 4;
const BATCH_RECORDS = 1_000;
const BATCHES_IN_FLIGHT = 4;
const QUEUE = 'i0-baseline';
const TABLE = 'i0_records';
const WORKER_FLAG = '--i0-worker';

interface WorkerConfig {
  databaseUrl: string;
  schema: string;
  redisUrl: string;
  prefix: string;
}

interface JobData {
  record: IngestRecord;
  batchId: string | null;
  requestId: string | null;
}

export interface I0Result {
  records: number;
  seconds: number;
  recordsPerSecond: number;
  /** Until the last addBulk had returned. */
  addSeconds: number;
  /** Peak RSS of the worker process, MB. */
  workerPeakRssMb: number;
  /** Mean JSON size of a job's data, bytes. */
  jobBytes: number;
  concurrency: number;
  flushRows: number;
}

/**
 * Queues `records` (the ingestion scenario's own) into a fresh queue under the environment's
 * Redis prefix and times their way into a table of the environment's schema; both go with
 * `environment.cleanup()`.
 */
export async function runI0(
  environment: BenchEnvironment,
  records: IngestRecord[],
  log: (message: string) => void = () => undefined,
): Promise<I0Result> {
  const { env, pool } = environment;
  await pool.query(`DROP TABLE IF EXISTS ${TABLE}`);
  await pool.query(
    `CREATE TABLE ${TABLE} (
      job_id varchar(200) PRIMARY KEY,
      type varchar(20) NOT NULL,
      payload text NOT NULL,
      recorded_at timestamptz NOT NULL
    )`,
  );
  const config: WorkerConfig = {
    databaseUrl: env.DATABASE_URL as string,
    schema: environment.schema,
    redisUrl: env.REDIS_URL as string,
    prefix: env.QUEUE_PREFIX as string,
  };
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), WORKER_FLAG], {
    cwd: ROOT,
    env: { ...process.env, I0_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const connection = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue<JobData>(QUEUE, { connection, prefix: config.prefix });
  try {
    const [ready] = (await Promise.race([
      once(child, 'message'),
      exited.then(() => {
        throw new Error('the I0 worker exited before it was ready');
      }),
    ])) as [string];
    if (ready !== 'ready') throw new Error(`the I0 worker said ${ready}`);
    const sending = randomUUID();
    const jobs = records.map((record) => ({
      name: record.type,
      data: { record, batchId: null, requestId: null },
      opts: { jobId: ingestJobId(record, sending) },
    }));
    const jobBytes = Math.round(
      jobs.reduce((sum, job) => sum + JSON.stringify(job.data).length, 0) / jobs.length,
    );
    log(`I0: ${records.length} jobs of ${jobBytes} bytes on average`);

    const started = performance.now();
    let next = 0;
    const adder = async () => {
      while (next < jobs.length) {
        const batch = jobs.slice(next, next + BATCH_RECORDS);
        next += BATCH_RECORDS;
        await queue.addBulk(batch);
      }
    };
    let addSeconds = 0;
    const adding = Promise.all(Array.from({ length: BATCHES_IN_FLIGHT }, adder)).then(() => {
      addSeconds = (performance.now() - started) / 1000;
    });
    for (;;) {
      const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${TABLE}`);
      if ((rows[0]?.n ?? 0) >= records.length) break;
      if (child.exitCode !== null) throw new Error('the I0 worker exited while draining');
      await sleep(20);
    }
    await adding;
    const seconds = (performance.now() - started) / 1000;
    return {
      records: records.length,
      seconds,
      recordsPerSecond: records.length / seconds,
      addSeconds,
      workerPeakRssMb: peakRssMb(child.pid),
      jobBytes,
      concurrency: CONCURRENCY,
      flushRows: FLUSH_ROWS,
    };
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await queue.close();
    connection.disconnect();
    await pool.query(`DROP TABLE IF EXISTS ${TABLE}`);
  }
}

/** The worker process: drains the queue into the table until SIGTERM. */
async function serveWorker(config: WorkerConfig): Promise<void> {
  const pool = new pg.Pool({
    connectionString: config.databaseUrl,
    max: WRITERS,
    options: `-c search_path=${config.schema}`,
  });
  let pending: { job: Job<JobData>; done: () => void; failed: (error: Error) => void }[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const rows = pending;
    pending = [];
    if (rows.length === 0) return;
    const values = JSON.stringify(
      rows.map(({ job }) => [job.id, job.name, JSON.stringify(job.data.record)]),
    );
    pool
      .query(
        `INSERT INTO ${TABLE} (job_id, type, payload, recorded_at)
         SELECT row->>0, row->>1, row->>2, now() FROM json_array_elements($1::json) AS row
         ON CONFLICT (job_id) DO NOTHING`,
        [values],
      )
      .then(
        () => rows.forEach((row) => row.done()),
        (error: Error) => rows.forEach((row) => row.failed(error)),
      );
  };
  const connection = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  const worker = new Worker<JobData>(
    QUEUE,
    (job) =>
      new Promise<void>((done, failed) => {
        pending.push({ job, done, failed });
        if (pending.length >= FLUSH_ROWS) flush();
        else timer ??= setTimeout(flush, FLUSH_DELAY_MS);
      }),
    {
      connection,
      prefix: config.prefix,
      concurrency: CONCURRENCY,
      removeOnComplete: { count: 0 },
      removeOnFail: { count: 1_000 },
    },
  );
  await worker.waitUntilReady();
  process.send?.('ready');
  process.once('SIGTERM', () => {
    void worker
      .close()
      .then(() => pool.end())
      .then(() => connection.quit())
      .finally(() => process.exit(0));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === WORKER_FLAG) {
  await serveWorker(JSON.parse(process.env.I0_CONFIG as string) as WorkerConfig);
}
