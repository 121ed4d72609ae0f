import { Injectable } from '@nestjs/common';
import {
  CompanyProfileChanged,
  CompanyRegistered,
  ExchangeRateRecorded,
  PricingExtracted,
  PricingPageRegistered,
  ScrapeCaptured,
  employeeBandLowerBound,
  unhandledEvent,
  type CompanyProfile,
  type DecodedEvent,
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

  async apply(tx: Transaction, events: DecodedEvent[]): Promise<void> {
    // Registrations go in together; a profile change first writes those before it, in case it
    // changes one of them.
    let registrations: CompanyEntity[] = [];
    for (const event of events) {
      switch (event.type) {
        case CompanyRegistered.TYPE:
          registrations.push({
            // The registration's log position: stable across rebuilds, unlike an autoincrement.
            id: event.seq,
            slug: event.payload.slug,
            ...profileColumns(event.payload),
            createdAt: event.recordedAt,
            updatedAt: event.recordedAt,
          });
          break;
        case CompanyProfileChanged.TYPE:
          await this.tables.companies.insert(tx, registrations);
          registrations = [];
          await this.tables.companies.update(
            tx,
            { slug: event.payload.slug },
            { ...profileColumns(event.payload), updatedAt: event.recordedAt },
          );
          break;
        case PricingPageRegistered.TYPE:
        case ScrapeCaptured.TYPE:
        case PricingExtracted.TYPE:
        case ExchangeRateRecorded.TYPE:
          break;
        default:
          unhandledEvent(event);
      }
    }
    await this.tables.companies.insert(tx, registrations);
  }

  clear(tx: Transaction): Promise<void> {
    return this.tables.companies.clear(tx);
  }
}
