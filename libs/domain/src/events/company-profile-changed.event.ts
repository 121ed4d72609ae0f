import type { CompanyProfile } from './company-registered.event.js';
import type { DomainEvent } from './domain-event.js';

/** The company's whole new profile (not a patch), so a reader needs no earlier event. */
export class CompanyProfileChanged implements DomainEvent<CompanyProfile> {
  static readonly TYPE = 'company.profile-changed.v1';
  static readonly SCHEMA_VERSION = 1;
  readonly type = CompanyProfileChanged.TYPE;
  readonly schemaVersion = CompanyProfileChanged.SCHEMA_VERSION;
  constructor(
    readonly streamId: string,
    readonly payload: CompanyProfile,
  ) {}
}
