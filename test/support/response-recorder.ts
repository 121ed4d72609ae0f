import {
  appendFileSync,
  linkSync,
  mkdirSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/**
 * With RECORD_RESPONSES=<directory>, the OpenAPI validator (openapi-validator.ts), which sees every
 * response the end-to-end tests receive, records each JSON body of a documented route there, with
 * the served document: `npm run check:client-types -- <directory>` then type-checks every body
 * against a client generated from that document (test/client-types/check-client-types.ts).
 */

/** One line of `responses-<pid>.ndjson`. */
export interface RecordedResponse {
  method: string;
  /** The path template of the operation, as the document writes it. */
  path: string;
  status: number;
  /** The key of the documented response: the status, `4XX` or `default`. */
  response: string;
  contentType: string;
  body: unknown;
}

export const DOCUMENT_FILE = 'openapi.json';
export const RESPONSES_FILE = /^responses-\d+\.ndjson$/;

export class ResponseRecorder {
  // Test files run in parallel processes: one file each, so no line is ever interleaved.
  private readonly file: string;

  constructor(private readonly directory: string) {
    mkdirSync(directory, { recursive: true });
    this.file = join(directory, `responses-${process.pid}.ndjson`);
  }

  /**
   * The document the responses are checked against. Every test app serves the same one; should
   * one differ, the check would be against the wrong document, so that is an error.
   */
  document(text: string): void {
    const target = join(this.directory, DOCUMENT_FILE);
    // Written aside, then linked into place: linking is atomic and never overwrites, so a
    // process reading the document meanwhile sees all of it or none.
    const aside = `${target}.${process.pid}`;
    writeFileSync(aside, text);
    try {
      linkSync(aside, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (readFileSync(target, 'utf8') !== text) {
        throw new Error(`This test app serves another OpenAPI document than ${target}`);
      }
    } finally {
      unlinkSync(aside);
    }
  }

  response(recorded: RecordedResponse): void {
    appendFileSync(this.file, `${JSON.stringify(recorded)}\n`);
  }
}

const directory = process.env.RECORD_RESPONSES;
export const responseRecorder = directory ? new ResponseRecorder(directory) : null;
