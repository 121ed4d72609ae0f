import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { BatchBody, Unparsable } from './batch-body.js';
import type { IngestChunkJobData } from './ingest-job.js';

/**
 * Room for the parsed records of the largest body the API takes (5 MB of JSON), with their
 * checks; the heap grows only as far as a batch needs.
 */
const THREAD_HEAP_MB = 128;
/** The records of a chunk die young; a small nursery keeps the thread's memory down (~20 MB). */
const THREAD_NURSERY_MB = 4;

export interface InvalidRecord {
  index: number;
  type: string | null;
  reasons: string[];
}

/** One job of a checked batch: a chunk of its records, in order, and the chunk's job id. */
export type ChunkJob = Pick<IngestChunkJobData, 'records' | 'chunkIndex' | 'firstIndex'> & {
  jobId: string;
};

export type CheckRequest = { id: number } & (
  | { op: 'parse'; batch: BatchBody }
  | { op: 'check'; batchId: string; chunkSize: number }
  | { op: 'chunk'; index: number }
);

export type CheckReply = { id: number } & (
  | { unparsable: Unparsable }
  | { length: number | null }
  | { invalid: InvalidRecord[] }
  | { chunkJobIds: string[] }
  | { chunk: ChunkJob }
  | { error: string }
);

/** What a check finds: the invalid records, or the job id of each chunk. */
type BatchCheck = { invalid: InvalidRecord[] } | { chunkJobIds: string[] };

/**
 * Parses and checks pushed batches on a thread of its own: a 1,000-record batch takes a core for
 * a moment, and on the API's event loop every read would wait for it. The thread holds one batch
 * at a time (parse, check, then its chunks one at a time), so its caller takes one batch at a
 * time. It starts on the first batch and ends with close(); should it die, the batch in hand
 * fails (a 500: a bug) and the next batch starts a new one.
 */
export class RecordChecker {
  private thread: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve: (reply: CheckReply) => void; reject: (error: Error) => void }
  >();

  constructor(private readonly scrapers: readonly string[]) {}

  /** Parses a batch; answers its length (null when it is not an array), or why it is not JSON. */
  async parse(batch: BatchBody): Promise<{ unparsable: Unparsable } | { length: number | null }> {
    // The bytes move to the thread (the caller's copy is emptied), or are copied first when
    // they share their memory with other buffers (Node's pool of small ones). An empty view is
    // neither: its memory may have moved already, and postMessage silently drops a message that
    // would move it again (the batch would wait for an answer forever).
    const given = batch.bytes;
    const own = given.byteOffset === 0 && given.byteLength === given.buffer.byteLength;
    const bytes = given.byteLength === 0 ? new Uint8Array(0) : own ? given : new Uint8Array(given);
    const reply = await this.send({ op: 'parse', batch: { ...batch, bytes } }, [
      bytes.buffer as ArrayBuffer,
    ]);
    if ('unparsable' in reply) return { unparsable: reply.unparsable };
    if ('length' in reply) return { length: reply.length };
    throw unexpected(reply);
  }

  /** Checks every record of the parsed batch, and cuts it into chunks named after `batchId`. */
  async check(batchId: string, chunkSize: number): Promise<BatchCheck> {
    const reply = await this.send({ op: 'check', batchId, chunkSize });
    if ('invalid' in reply) return { invalid: reply.invalid };
    if ('chunkJobIds' in reply) return { chunkJobIds: reply.chunkJobIds };
    throw unexpected(reply);
  }

  /** The checked batch's chunk at `index`. */
  async chunk(index: number): Promise<ChunkJob> {
    const reply = await this.send({ op: 'chunk', index });
    if ('chunk' in reply) return reply.chunk;
    throw unexpected(reply);
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    await thread?.terminate();
  }

  private send(
    request: DistributiveOmit<CheckRequest, 'id'>,
    transfer: ArrayBuffer[] = [],
  ): Promise<CheckReply> {
    const id = this.nextId++;
    const thread = this.running();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // The process lives while a batch awaits its thread (a command-line run may have nothing
      // else in flight), and not because of an idle one.
      thread.ref();
      thread.postMessage({ ...request, id }, transfer);
    });
  }

  private running(): Worker {
    if (this.thread) return this.thread;
    const thread = new Worker(threadEntry(), {
      execArgv: withoutConditions(process.execArgv),
      workerData: { scrapers: [...this.scrapers] },
      resourceLimits: {
        maxOldGenerationSizeMb: THREAD_HEAP_MB,
        maxYoungGenerationSizeMb: THREAD_NURSERY_MB,
      },
    });
    thread.on('message', (reply: CheckReply) => {
      this.pending.get(reply.id)?.resolve(reply);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) thread.unref();
    });
    const fail = (error: Error) => {
      if (this.thread === thread) this.thread = null;
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    };
    thread.on('error', fail);
    thread.on('exit', (code) => fail(new Error(`the record-check thread exited (${code})`)));
    this.thread = thread;
    return thread;
  }
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

function unexpected(reply: CheckReply): Error {
  return new Error(
    'error' in reply ? `the record-check thread failed: ${reply.error}` : 'unexpected reply',
  );
}

/**
 * The process's flags without its resolution conditions (under Vitest a `source` condition would
 * point the compiled thread's imports at TypeScript), or undefined to inherit them all: a thread
 * refuses some flags (--max-old-space-size) when they are passed rather than inherited.
 */
function withoutConditions(flags: readonly string[]): string[] | undefined {
  const kept: string[] = [];
  for (let index = 0; index < flags.length; index += 1) {
    const flag = flags[index] as string;
    if (flag === '--conditions' || flag === '-C') index += 1;
    else if (!flag.startsWith('--conditions=')) kept.push(flag);
  }
  return kept.length < flags.length ? kept : undefined;
}

/**
 * The thread's code. Run from the sources (Vitest), this module is TypeScript, which a thread
 * cannot load: the thread then runs the compiled twin, which the test setup builds first.
 */
function threadEntry(): URL {
  const compiled = new URL('./record-check.thread.js', import.meta.url);
  if (existsSync(compiled)) return compiled;
  return new URL('../../../dist/libs/contracts/src/record-check.thread.js', import.meta.url);
}
