import type { DomainEvent } from './domain-event.js';

export interface CompanyProfile {
  slug: string;
  name: string;
  category: string;
  employees: string;
  url: string;
}

export class CompanyRegistered implements DomainEvent<CompanyProfile> {
  /** Stored in the log: never change it; a new shape gets a new type. */
  static readonly TYPE = 'company.registered.v1';
  readonly type = CompanyRegistered.TYPE;
  readonly schemaVersion = 1;
  constructor(
    readonly streamId: string,
    readonly payload: CompanyProfile,
  ) {}
}
