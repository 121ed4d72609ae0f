import type { RecordFields } from '../records.js';
import type { DomainEvent } from './domain-event.js';

/** A company record's fields: the whole profile. */
export type CompanyProfile = RecordFields<'company'>;

export class CompanyRegistered implements DomainEvent<CompanyProfile> {
  /** Stored in the log: never change it (a new payload shape is a new SCHEMA_VERSION). */
  static readonly TYPE = 'company.registered.v1';
  static readonly SCHEMA_VERSION = 1;
  readonly type = CompanyRegistered.TYPE;
  readonly schemaVersion = CompanyRegistered.SCHEMA_VERSION;
  constructor(
    readonly streamId: string,
    readonly payload: CompanyProfile,
  ) {}
}
