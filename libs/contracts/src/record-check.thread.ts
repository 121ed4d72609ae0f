/*
 * The body of the record-check thread (RecordChecker). It holds one batch at a time: parses its
 * body, checks every record, and hands back its distinct jobs a chunk at a time. It loads only
 * what that needs (no queue, no Redis client).
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { IngestRecord } from '#app/domain';
import { parseBatchBody } from './batch-body.js';
import { ingestJobId } from './ingest-job.js';
import type { CheckReply, CheckRequest, DistinctJob, InvalidRecord } from './record-checker.js';
import { recordProblems } from './record-validation.js';

const { scrapers } = workerData as { scrapers: string[] };
const port = parentPort!;

// The lowest priority, for this thread alone (Linux sets a thread's own niceness): when the
// cores are busy, the event loop that serves reads goes first, and checking waits.
setPriority(19);

/**
 * The batch in hand: its records once parsed, its distinct jobs once checked. A thread that
 * holds none (a new one, after its predecessor died mid-batch) refuses to check or hand out
 * jobs, so a batch it never saw cannot be answered as checked with nothing to queue.
 */
let items: unknown[] | null = null;
let jobs: DistinctJob[] | null = null;

async function answer(request: CheckRequest): Promise<CheckReply> {
  const { id } = request;
  switch (request.op) {
    case 'parse': {
      items = null;
      jobs = null;
      const parsed = parseBatchBody(request.batch);
      if (!('value' in parsed)) return { id, unparsable: parsed };
      if (!Array.isArray(parsed.value)) return { id, length: null };
      items = parsed.value;
      return { id, length: items.length };
    }
    case 'check': {
      if (!items) throw new Error('no parsed batch to check');
      const invalid: InvalidRecord[] = [];
      const distinct = new Map<string, DistinctJob>();
      const jobIds: string[] = [];
      for (const [index, item] of items.entries()) {
        const reasons = await recordProblems(item, scrapers);
        if (reasons.length > 0) {
          const type = (item as { type?: unknown } | null)?.type;
          invalid.push({ index, type: typeof type === 'string' ? type : null, reasons });
          continue;
        }
        const record = item as IngestRecord;
        const jobId = ingestJobId(record, request.batchId);
        jobIds.push(jobId);
        // Identical records within a batch are one job.
        distinct.set(jobId, { jobId, record });
      }
      if (invalid.length > 0) return { id, invalid };
      jobs = [...distinct.values()];
      return { id, jobIds, distinctJobs: jobs.length };
    }
    case 'jobs':
      if (!jobs) throw new Error('no checked batch to take jobs from');
      return { id, jobs: jobs.slice(request.start, request.start + request.count) };
  }
}

port.on('message', (request: CheckRequest) => {
  answer(request).then(
    (reply) => port.postMessage(reply),
    (error: unknown) =>
      port.postMessage({
        id: request.id,
        error: error instanceof Error ? error.stack : String(error),
      }),
  );
});
