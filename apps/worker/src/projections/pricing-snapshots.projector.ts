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
import {
  ReadModelTables,
  Transaction,
  type LogPosition,
  type PricingSnapshotEntity,
} from '#app/persistence';
import { pricingDocumentOf } from './pricing-document-of.js';
import type { Projector } from './projector.js';

/**
 * One ready-to-serve document per page and version: a read is a single row, no joins. Each
 * row carries its event's position; rows go in in position order, inside the transaction that
 * moves the checkpoint, so a range read by position never misses a row that appears later
 * (PricingChangeReader explains why).
 */
@Injectable()
export class PricingSnapshotsProjector implements Projector {
  readonly name = 'pricing-snapshots';

  constructor(private readonly tables: ReadModelTables) {}

  async apply(tx: Transaction, events: DecodedEvent[], positions: LogPosition[]): Promise<void> {
    const rows: PricingSnapshotEntity[] = [];
    for (const [i, event] of events.entries()) {
      switch (event.type) {
        case PricingExtracted.TYPE: {
          const extraction = event.payload;
          rows.push({
            id: extraction.snapshot_id,
            pageId: extraction.page_id,
            companySlug: extraction.company_slug,
            pageSlug: extraction.page_slug,
            version: extraction.version,
            document: JSON.stringify(pricingDocumentOf(extraction)),
            createdAt: event.recordedAt,
            eventTransactionId: positions[i]!.transactionId,
            eventSeq: String(positions[i]!.seq),
          });
          break;
        }
        case CompanyRegistered.TYPE:
        case CompanyProfileChanged.TYPE:
        case PricingPageRegistered.TYPE:
        case ScrapeCaptured.TYPE:
        case ExchangeRateRecorded.TYPE:
          break;
        default:
          unhandledEvent(event);
      }
    }
    await this.tables.pricingSnapshots.insert(tx, rows);
  }

  clear(tx: Transaction): Promise<void> {
    return this.tables.pricingSnapshots.clear(tx);
  }
}
