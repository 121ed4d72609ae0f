import { afterEach, describe, expect, it } from 'vitest';
import { batchBodyOf, type BatchBody } from './batch-body.js';
import { ingestChunkJobId } from './ingest-job.js';
import { RecordChecker } from './record-checker.js';

const company = (slug: string) => ({
  type: 'company',
  slug,
  name: 'Acme',
  category: 'Finance',
  employees: '1-10',
  url: `https://${slug}`,
});

const ndjson = (text: string): BatchBody => ({ bytes: Buffer.from(text), format: 'ndjson' });

let checker: RecordChecker;
afterEach(() => checker?.close());

describe('RecordChecker, on its thread', () => {
  it('parses, checks and hands back a batch in chunks, one at a time', async () => {
    checker = new RecordChecker([]);
    const records = [company('a.io'), company('b.io'), company('a.io')];
    expect(await checker.parse(batchBodyOf(records))).toEqual({ length: 3 });
    const checked = await checker.check('batch-1', 2);
    const chunkJobIds = [
      ingestChunkJobId(records.slice(0, 2) as never, 'batch-1', 0),
      ingestChunkJobId(records.slice(2) as never, 'batch-1', 1),
    ];
    expect(checked).toEqual({ chunkJobIds });
    expect(chunkJobIds[0]).toMatch(/^chunk-batch-1-0-[0-9a-f]{24}$/);
    expect(await checker.chunk(1)).toEqual({
      jobId: chunkJobIds[1],
      chunkIndex: 1,
      firstIndex: 2,
      records: [records[2]],
    });
    expect(await checker.chunk(0)).toMatchObject({ firstIndex: 0, records: records.slice(0, 2) });
  });

  it('names every invalid record, and says why a body is not a batch', async () => {
    checker = new RecordChecker([]);
    await checker.parse(batchBodyOf([company('a.io'), { type: 'company' }, 7]));
    const checked = await checker.check('batch-2', 100);
    expect(checked).toEqual({
      invalid: [
        { index: 1, type: 'company', reasons: expect.arrayContaining([expect.any(String)]) },
        { index: 2, type: null, reasons: ['a record must be a JSON object'] },
      ],
    });
    expect(await checker.parse({ bytes: Buffer.from('{"a":1}'), format: 'json' })).toEqual({
      length: null,
    });
    expect(await checker.parse({ bytes: Buffer.from('[1,'), format: 'json' })).toEqual({
      unparsable: { format: 'json', empty: false },
    });
    expect(await checker.parse({ bytes: Buffer.alloc(0), format: 'json' })).toEqual({
      unparsable: { format: 'json', empty: true },
    });
    expect(await checker.parse(ndjson('{"a":1}\n\nnot json\n'))).toEqual({
      unparsable: { format: 'ndjson', line: 3 },
    });
    expect(await checker.parse(ndjson('{"a":1}\n{"b":2}\n'))).toEqual({ length: 2 });
  });

  it('refuses a __proto__ key in JSON, as Fastify does for every other body', async () => {
    checker = new RecordChecker([]);
    const body = Buffer.from('[{"type":"company","__proto__":{"x":1}}]');
    expect(await checker.parse({ bytes: body, format: 'json' })).toEqual({
      unparsable: { format: 'json', empty: false },
    });
  });

  it('moves the bytes it is given to the thread, or copies a slice of shared memory', async () => {
    checker = new RecordChecker([]);
    const own: BatchBody = { bytes: new Uint8Array(Buffer.from('[]')), format: 'json' };
    expect(await checker.parse(own)).toEqual({ length: 0 });
    expect(own.bytes.byteLength).toBe(0);
    const pooled = Buffer.from('[]'); // a slice of Node's shared pool
    expect(await checker.parse({ bytes: pooled, format: 'json' })).toEqual({ length: 0 });
    expect(pooled.toString()).toBe('[]');
  });

  it('fails the batch in hand when its thread dies, and starts a new thread for the next', async () => {
    checker = new RecordChecker([]);
    await checker.parse(batchBodyOf([company('a.io')]));
    const inHand = checker.check('batch-3', 100);
    await checker.close();
    await expect(inHand).rejects.toThrow(/record-check thread exited/);
    expect(await checker.parse(batchBodyOf([company('b.io')]))).toEqual({ length: 1 });
  });

  it('refuses to check or hand out chunks of a batch its thread never parsed', async () => {
    checker = new RecordChecker([]);
    await checker.parse(batchBodyOf([company('a.io')]));
    await checker.close();
    // The next thread holds no batch: the one its predecessor had is not answered as empty.
    await expect(checker.check('batch-4', 100)).rejects.toThrow(/no parsed batch to check/);
    await expect(checker.chunk(0)).rejects.toThrow(/no checked batch/);
  });

  it('answers a body whose bytes were already moved away as empty, never leaving it waiting', async () => {
    checker = new RecordChecker([]);
    const body: BatchBody = { bytes: new Uint8Array(Buffer.from('[]')), format: 'json' };
    expect(await checker.parse(body)).toEqual({ length: 0 });
    expect(await checker.parse(body)).toEqual({ unparsable: { format: 'json', empty: true } });
  });
});
