import { readFileSync } from 'node:fs';

/**
 * Compares two OpenAPI documents field by field: every path, parameter, schema, field, type,
 * bound, example and code must be the same in both. Only wording may differ: the values of
 * `description` and `summary`, which are listed apart and do not fail the comparison.
 *
 *   node dist/test/client-types/compare-documents.js before.json after.json
 *
 * Exits 1 when anything but wording differs.
 */
const WORDING = new Set(['description', 'summary']);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Difference {
  path: string;
  before: Json | undefined;
  after: Json | undefined;
}

function compare(before: Json | undefined, after: Json | undefined, path: string): Difference[] {
  if (isObject(before) && isObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys].flatMap((key) => compare(before[key], after[key], `${path}/${key}`));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    return Array.from({ length }, (_, index) =>
      compare(before[index], after[index], `${path}/${index}`),
    ).flat();
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path, before, after }];
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const isWording = (difference: Difference) =>
  WORDING.has(difference.path.slice(difference.path.lastIndexOf('/') + 1)) &&
  typeof (difference.before ?? '') === 'string' &&
  typeof (difference.after ?? '') === 'string';

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error('usage: compare-documents.js before.json after.json');
  process.exit(2);
}
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Json;
const differences = compare(read(beforeFile), read(afterFile), '');
const wording = differences.filter(isWording);
const others = differences.filter((difference) => !isWording(difference));
const show = (difference: Difference) =>
  `${difference.path}\n  before: ${JSON.stringify(difference.before)}\n  after:  ${JSON.stringify(difference.after)}`;
for (const difference of wording) console.log(`wording ${show(difference)}`);
for (const difference of others) console.log(`DIFFERS ${show(difference)}`);
console.log(`${others.length} differences, ${wording.length} in wording only`);
process.exit(others.length === 0 ? 0 : 1);
