import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import {
  DOCUMENT_FILE,
  RESPONSES_FILE,
  type RecordedResponse,
} from '../support/response-recorder.js';
import { clientSchemaSource } from './client-schema.js';

/**
 * Does a client generated from the served OpenAPI document accept every answer the service
 * gives? After a test run with RECORD_RESPONSES=<directory> (test/support/response-recorder.ts):
 *
 *   npm run check:client-types -- <directory>
 *
 * generates the client's types with openapi-typescript from the document the tests were served,
 * writes each distinct recorded body as an object literal assigned to
 * `paths[P][M]['responses'][S]['content'][T]` (so excess-property checks apply, as they would to
 * a client's own literals), type-checks them with the TypeScript compiler, prints how many
 * passed, and exits 1 when any did not.
 */

interface Entry {
  recorded: RecordedResponse;
  /** How many times the tests received this very body from this operation and status. */
  times: number;
  line: number;
}

function readRecords(directory: string): RecordedResponse[] {
  return readdirSync(directory)
    .filter((name) => RESPONSES_FILE.test(name))
    .flatMap((name) =>
      readFileSync(join(directory, name), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as RecordedResponse),
    );
}

/** One entry per distinct (operation, response, content type, body): the file stays small. */
function distinctEntries(records: RecordedResponse[]): Entry[] {
  const entries = new Map<string, Entry>();
  for (const recorded of records) {
    const key = JSON.stringify([
      recorded.method,
      recorded.path,
      recorded.response,
      recorded.contentType,
      recorded.body,
    ]);
    const entry = entries.get(key);
    if (entry) entry.times += 1;
    else entries.set(key, { recorded, times: 1, line: 0 });
  }
  return [...entries.values()];
}

/** The checked file: one statement per line, so a diagnostic's line names its entry. */
function responsesSource(entries: Entry[]): string {
  const lines = ["import type { paths } from './schema';"];
  entries.forEach((entry, index) => {
    const { method, path, response, contentType, body } = entry.recorded;
    const type =
      `paths[${JSON.stringify(path)}][${JSON.stringify(method.toLowerCase())}]['responses']` +
      `[${JSON.stringify(response)}]['content'][${JSON.stringify(contentType)}]`;
    lines.push(`export const response${index}: ${type} = ${JSON.stringify(body)};`);
    entry.line = lines.length - 1;
  });
  return `${lines.join('\n')}\n`;
}

function describe(recorded: RecordedResponse): string {
  return `${recorded.method} ${recorded.path} ${recorded.status} ${recorded.contentType}`;
}

async function main(): Promise<number> {
  const directory = process.argv[2];
  if (!directory) throw new Error('usage: check-client-types.js <RECORD_RESPONSES directory>');
  const records = readRecords(directory);
  if (records.length === 0) throw new Error(`No recorded response in ${directory}`);
  const document = JSON.parse(readFileSync(join(directory, DOCUMENT_FILE), 'utf8')) as object;

  const output = join(directory, 'client');
  mkdirSync(output, { recursive: true });
  const schemaFile = join(output, 'schema.ts');
  writeFileSync(schemaFile, await clientSchemaSource(document));
  const entries = distinctEntries(records);
  const responsesFile = join(output, 'responses.ts');
  writeFileSync(responsesFile, responsesSource(entries));

  const program = ts.createProgram([responsesFile], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts'],
    types: [],
  });
  const failures = new Map<Entry, string[]>();
  const elsewhere: string[] = [];
  const byLine = new Map(entries.map((entry) => [entry.line, entry]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ');
    const line =
      diagnostic.file?.fileName === responsesFile && diagnostic.start !== undefined
        ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line
        : undefined;
    const entry = line === undefined ? undefined : byLine.get(line);
    if (entry) failures.set(entry, [...(failures.get(entry) ?? []), message]);
    else elsewhere.push(`${diagnostic.file?.fileName ?? '(no file)'}: ${message}`);
  }

  for (const [entry, messages] of failures) {
    console.error(
      `FAIL ${describe(entry.recorded)} (received ${entry.times}x, ${responsesFile}:${entry.line + 1})`,
    );
    for (const message of messages) console.error(`  ${message.slice(0, 2000)}`);
  }
  for (const message of elsewhere) console.error(`ERROR ${message.slice(0, 2000)}`);

  const failed = [...failures.keys()].reduce((sum, entry) => sum + entry.times, 0);
  const operations = new Set(records.map((recorded) => `${recorded.method} ${recorded.path}`));
  console.log(
    `Type-checked ${records.length} responses (${entries.length} distinct bodies, ` +
      `${operations.size} operations) against the client openapi-typescript generates from ` +
      `the served document: ${records.length - failed} pass, ${failed} fail` +
      (elsewhere.length > 0 ? `; ${elsewhere.length} errors outside the responses` : '') +
      '.',
  );
  return failed === 0 && elsewhere.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
