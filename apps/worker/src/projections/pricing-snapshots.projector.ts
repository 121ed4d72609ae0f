import { Injectable } from '@nestjs/common';
import { PricingExtracted, type PricingExtractedPayload, type RecordedEvent } from '#app/domain';
import { ReadModelTables, Transaction } from '#app/persistence';
import { pricingDocumentOf } from './pricing-document-of.js';
import type { Projector } from './projector.js';

/** One ready-to-serve document per page and version: a read is a single row, no joins. */
@Injectable()
export class PricingSnapshotsProjector implements Projector {
  readonly name = 'pricing-snapshots';

  constructor(private readonly tables: ReadModelTables) {}

  async apply(tx: Transaction, events: RecordedEvent[]): Promise<void> {
    const rows = events
      .filter((event) => event.type === PricingExtracted.TYPE)
      .map((event) => {
        const extraction = event.payload as PricingExtractedPayload;
        return {
          id: extraction.snapshot_id,
          pageId: extraction.page_id,
          companySlug: extraction.company_slug,
          pageSlug: extraction.page_slug,
          version: extraction.version,
          document: JSON.stringify(pricingDocumentOf(extraction)),
          createdAt: event.recordedAt,
        };
      });
    await this.tables.pricingSnapshots.insert(tx, rows);
  }

  clear(tx: Transaction): Promise<void> {
    return this.tables.pricingSnapshots.clear(tx);
  }
}
