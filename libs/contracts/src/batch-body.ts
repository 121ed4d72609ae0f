import secureJsonParse from 'secure-json-parse';

/**
 * A batch of records as pushed, unparsed: a JSON array, or NDJSON (one record a line). Bytes,
 * not a string: a waiting batch then sits outside the JavaScript heap, which the garbage
 * collector would otherwise copy, and it moves to the checking thread without a copy.
 */
export interface BatchBody {
  bytes: Uint8Array;
  format: 'json' | 'ndjson';
}

export const isBatchBody = (value: unknown): value is BatchBody =>
  (value as BatchBody | null)?.bytes instanceof Uint8Array &&
  ((value as BatchBody).format === 'json' || (value as BatchBody).format === 'ndjson');

/** Records already in hand (the command-line tool, the demo catalogue) as a pushed batch. */
export const batchBodyOf = (records: readonly unknown[]): BatchBody => ({
  bytes: Buffer.from(JSON.stringify(records)),
  format: 'json',
});

/** Why a batch's body is not one: an empty or invalid JSON body, or the NDJSON line that is not JSON. */
export type Unparsable = { format: 'json'; empty: boolean } | { format: 'ndjson'; line: number };

/**
 * The batch's value, or why it is not JSON. JSON is read as Fastify reads every other JSON body
 * (secure-json-parse, refusing `__proto__` and `constructor.prototype`); NDJSON line by line,
 * blank lines skipped. Bytes that are not UTF-8 read as U+FFFD, as in any body.
 */
export function parseBatchBody({ bytes, format }: BatchBody): { value: unknown } | Unparsable {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (format === 'json') {
    if (text.length === 0) return { format, empty: true };
    try {
      return {
        value: secureJsonParse(text, undefined, {
          protoAction: 'error',
          constructorAction: 'error',
        }),
      };
    } catch {
      return { format, empty: false };
    }
  }
  const records: unknown[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      return { format, line: index + 1 };
    }
  }
  return { value: records };
}
