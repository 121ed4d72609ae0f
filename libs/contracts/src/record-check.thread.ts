/*
 * The body of the record-check thread (RecordChecker). It holds one batch at a time: parses its
 * body, checks every record, and hands back its chunks one at a time. It loads only
 * what that needs (no queue, no Redis client).
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { IngestRecord } from '#app/domain';
import { parseBatchBody } from './batch-body.js';
import { ingestChunkJobId } from './ingest-job.js';
import type { CheckReply, CheckRequest, ChunkJob, InvalidRecord } from './record-checker.js';
import { recordProblems } from './record-validation.js';

const { scrapers } = workerData as { scrapers: string[] };
const port = parentPort!;

// The lowest priority, for this thread alone (Linux sets a thread's own niceness): when the
// cores are busy, the event loop that serves reads goes first, and checking waits.
setPriority(19);

/**
 * The batch in hand: its records once parsed, its chunks once checked. A thread that
 * holds none (a new one, after its predecessor died mid-batch) refuses to check or hand out
 * jobs, so a batch it never saw cannot be answered as checked with nothing to queue.
 */
let items: unknown[] | null = null;
let chunks: ChunkJob[] | null = null;

async function answer(request: CheckRequest): Promise<CheckReply> {
  const { id } = request;
  switch (request.op) {
    case 'parse': {
      items = null;
      chunks = null;
      const parsed = parseBatchBody(request.batch);
      if (!('value' in parsed)) return { id, unparsable: parsed };
      if (!Array.isArray(parsed.value)) return { id, length: null };
      items = parsed.value;
      return { id, length: items.length };
    }
    case 'check': {
      if (!items) throw new Error('no parsed batch to check');
      const invalid: InvalidRecord[] = [];
      for (const [index, item] of items.entries()) {
        const reasons = await recordProblems(item, scrapers);
        if (reasons.length > 0) {
          const type = (item as { type?: unknown } | null)?.type;
          invalid.push({ index, type: typeof type === 'string' ? type : null, reasons });
        }
      }
      if (invalid.length > 0) return { id, invalid };
      const records = items as IngestRecord[];
      chunks = [];
      for (let first = 0; first < records.length; first += request.chunkSize) {
        const chunkRecords = records.slice(first, first + request.chunkSize);
        const chunkIndex = chunks.length;
        const jobId = ingestChunkJobId(chunkRecords, request.batchId, chunkIndex);
        chunks.push({ jobId, chunkIndex, firstIndex: first, records: chunkRecords });
      }
      return { id, chunkJobIds: chunks.map((chunk) => chunk.jobId) };
    }
    case 'chunk': {
      const chunk = chunks?.[request.index];
      if (!chunk) throw new Error('no checked batch to take this chunk from');
      return { id, chunk };
    }
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
