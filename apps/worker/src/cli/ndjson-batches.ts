import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** Up to `size` consecutive records of an NDJSON file, with the line each one came from. */
export interface NdjsonBatch {
  /** Position of the batch in the file, from 1. */
  number: number;
  /** The parsed lines; a line that is not JSON is kept as its text (no record accepts that). */
  records: unknown[];
  /** Line number (from 1) of each record. */
  lines: number[];
  /** Index in `records` → why that line is not JSON. */
  unparsable: Map<number, string>;
}

/** The lines of a file, read as a stream (a file of any size, one line in memory at a time). */
export function fileLines(path: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
}

/**
 * Cuts NDJSON lines into batches of at most `size` records. Blank lines are skipped but
 * counted, so line numbers match what an editor shows; a byte-order mark is ignored.
 */
export async function* ndjsonBatches(
  lines: AsyncIterable<string>,
  size: number,
): AsyncGenerator<NdjsonBatch> {
  let batch = emptyBatch(1);
  let lineNumber = 0;
  for await (const raw of lines) {
    lineNumber += 1;
    const line = (lineNumber === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
    if (line === '') continue;
    try {
      batch.records.push(JSON.parse(line) as unknown);
    } catch (error) {
      batch.unparsable.set(batch.records.length, `not JSON: ${(error as Error).message}`);
      batch.records.push(line);
    }
    batch.lines.push(lineNumber);
    if (batch.records.length === size) {
      yield batch;
      batch = emptyBatch(batch.number + 1);
    }
  }
  if (batch.records.length > 0) yield batch;
}

function emptyBatch(number: number): NdjsonBatch {
  return { number, records: [], lines: [], unparsable: new Map() };
}
