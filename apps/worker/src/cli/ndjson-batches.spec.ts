import { describe, expect, it } from 'vitest';
import { ndjsonBatches, type NdjsonBatch } from './ndjson-batches.js';

async function batchesOf(text: string, size: number): Promise<NdjsonBatch[]> {
  async function* lines() {
    yield* text.split('\n');
  }
  const batches: NdjsonBatch[] = [];
  for await (const batch of ndjsonBatches(lines(), size)) batches.push(batch);
  return batches;
}

describe('ndjsonBatches', () => {
  it('cuts records into batches of at most the size, numbering batches and lines from 1', async () => {
    const batches = await batchesOf(['{"a":1}', '{"a":2}', '{"a":3}'].join('\n'), 2);
    expect(batches.map(({ number, records, lines }) => ({ number, records, lines }))).toEqual([
      { number: 1, records: [{ a: 1 }, { a: 2 }], lines: [1, 2] },
      { number: 2, records: [{ a: 3 }], lines: [3] },
    ]);
  });

  it('skips blank lines but keeps counting them, and ignores a byte-order mark and CRs', async () => {
    const [batch] = await batchesOf('\uFEFF{"a":1}\r\n\n   \n{"a":2}\n', 10);
    expect(batch?.records).toEqual([{ a: 1 }, { a: 2 }]);
    expect(batch?.lines).toEqual([1, 4]);
  });

  it('keeps a line that is not JSON as its text, with the parser message', async () => {
    const [batch] = await batchesOf('{"a":1}\n{"a":\n[]', 10);
    expect(batch?.records).toEqual([{ a: 1 }, '{"a":', []]);
    expect([...(batch?.unparsable.keys() ?? [])]).toEqual([1]);
    expect(batch?.unparsable.get(1)).toMatch(/^not JSON: /);
  });

  it('yields nothing for an empty file', async () => {
    expect(await batchesOf('\n\n', 10)).toEqual([]);
  });
});
