import type { IngestRecord } from '../records.js';
import type { CommandOrigin } from './command-origin.js';

/**
 * Append the events of a job's records (a chunk, or one record) in one transaction. Each record
 * still gets an outcome of its own: one refused or waiting for its company holds no other back.
 */
export class AppendRecords {
  constructor(
    readonly records: readonly IngestRecord[],
    readonly origin: CommandOrigin,
  ) {}
}

/**
 * What became of one record of an AppendRecords: its events appended (by this sending, perhaps by
 * an earlier run of the same job), the same fact found already recorded, or neither yet: it
 * waits for its company, page or scrape, or is refused (a conflict) for good.
 */
export type RecordOutcome =
  { outcome: 'appended' | 'duplicate' } | { outcome: 'waiting' | 'refused'; reason: string };
