import { Injectable } from '@nestjs/common';
import {
  CompanyProfileChanged,
  CompanyRegistered,
  ExchangeRateRecorded,
  PricingExtracted,
  PricingPageRegistered,
  ScrapeCaptured,
  unhandledEvent,
  type DecodedEvent,
} from '#app/domain';
import { ReadModelTables, Transaction, type ExchangeRateEntity } from '#app/persistence';
import type { Projector } from './projector.js';

@Injectable()
export class ExchangeRatesProjector implements Projector {
  readonly name = 'exchange-rates';

  constructor(private readonly tables: ReadModelTables) {}

  async apply(tx: Transaction, events: DecodedEvent[]): Promise<void> {
    const rows: ExchangeRateEntity[] = [];
    for (const event of events) {
      switch (event.type) {
        case ExchangeRateRecorded.TYPE: {
          const { date, base, quote, rate } = event.payload;
          rows.push({ date, base, quote, rate });
          break;
        }
        case CompanyRegistered.TYPE:
        case CompanyProfileChanged.TYPE:
        case PricingPageRegistered.TYPE:
        case ScrapeCaptured.TYPE:
        case PricingExtracted.TYPE:
          break;
        default:
          unhandledEvent(event);
      }
    }
    await this.tables.exchangeRates.insert(tx, rows);
  }

  clear(tx: Transaction): Promise<void> {
    return this.tables.exchangeRates.clear(tx);
  }
}
