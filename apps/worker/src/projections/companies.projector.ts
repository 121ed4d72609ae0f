import { Injectable } from '@nestjs/common';
import {
  CompanyProfileChanged,
  CompanyRegistered,
  employeeBandLowerBound,
  type CompanyProfile,
  type RecordedEvent,
} from '#app/domain';
import { ReadModelTables, Transaction, type CompanyEntity } from '#app/persistence';
import type { Projector } from './projector.js';

const profileColumns = (profile: CompanyProfile) => ({
  name: profile.name,
  category: profile.category,
  employees: profile.employees,
  employeesMin: employeeBandLowerBound(profile.employees) ?? 0,
  url: profile.url,
});

@Injectable()
export class CompaniesProjector implements Projector {
  readonly name = 'companies';

  constructor(private readonly tables: ReadModelTables) {}

  async apply(tx: Transaction, events: RecordedEvent[]): Promise<void> {
    // Registrations go in together; a profile change first writes those before it, in case it
    // changes one of them.
    let registrations: CompanyEntity[] = [];
    for (const event of events) {
      const profile = event.payload as CompanyProfile;
      if (event.type === CompanyRegistered.TYPE) {
        registrations.push({
          // The registration's log position: stable across rebuilds, unlike an autoincrement.
          id: event.seq,
          slug: profile.slug,
          ...profileColumns(profile),
          createdAt: event.recordedAt,
          updatedAt: event.recordedAt,
        });
      } else if (event.type === CompanyProfileChanged.TYPE) {
        await this.tables.companies.insert(tx, registrations);
        registrations = [];
        await this.tables.companies.update(
          tx,
          { slug: profile.slug },
          { ...profileColumns(profile), updatedAt: event.recordedAt },
        );
      }
    }
    await this.tables.companies.insert(tx, registrations);
  }

  clear(tx: Transaction): Promise<void> {
    return this.tables.companies.clear(tx);
  }
}
