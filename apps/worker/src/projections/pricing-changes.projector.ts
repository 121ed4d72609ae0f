import { Injectable } from '@nestjs/common';
import {
  CompanyProfileChanged,
  CompanyRegistered,
  ExchangeRateRecorded,
  PricingExtracted,
  PricingPageRegistered,
  ScrapeCaptured,
  decodeEvent,
  diffPricing,
  streamIds,
  unhandledEvent,
  type DecodedEvent,
  type DecodedEventOf,
  type PricingDocument,
  type PricingExtractedPayload,
} from '#app/domain';
import {
  EventStore,
  ReadModelTables,
  Transaction,
  type LogPosition,
  type PricingChangeEntity,
} from '#app/persistence';
import { pricingDocumentOf } from './pricing-document-of.js';
import type { Projector } from './projector.js';

interface Extraction {
  event: DecodedEventOf<typeof PricingExtracted.TYPE>;
  position: LogPosition;
  payload: PricingExtractedPayload;
}

/**
 * The change feed: for each extraction, in log order, what changed from the pricing the API
 * served as the page's latest (its highest version) just before it. An extraction of an older
 * version than that (a backfill) changes nothing the API serves and adds no change; a page's
 * first extraction adds each of its plans (plan_added from nothing), so that following the feed
 * sees every page's pricing arrive. Built from the log alone, never from another read model,
 * so a rebuild writes the same rows.
 */
@Injectable()
export class PricingChangesProjector implements Projector {
  readonly name = 'pricing-changes';

  constructor(
    private readonly tables: ReadModelTables,
    private readonly eventStore: EventStore,
  ) {}

  async apply(tx: Transaction, events: DecodedEvent[], positions: LogPosition[]): Promise<void> {
    const extractions: Extraction[] = [];
    for (const [i, event] of events.entries()) {
      switch (event.type) {
        case PricingExtracted.TYPE:
          extractions.push({ event, position: positions[i]!, payload: event.payload });
          break;
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
    const first = extractions[0];
    if (!first) return;
    const pageOf = (payload: PricingExtractedPayload) =>
      streamIds.pricingOfPage(payload.company_slug, payload.page_slug);
    // Each page's latest before this batch, from the log; within the batch, kept up as we go.
    const earlier = await this.eventStore.readLastStreamStartsBefore(
      tx,
      extractions.map(({ payload }) => pageOf(payload)),
      first.position,
    );
    const latest = new Map<string, PricingDocument>();
    for (const [page, stored] of earlier) {
      // A page's pricing streams hold extractions alone.
      const event = decodeEvent(stored);
      if (event.type === PricingExtracted.TYPE) latest.set(page, pricingDocumentOf(event.payload));
    }
    const rows: PricingChangeEntity[] = [];
    for (const { event, position, payload } of extractions) {
      const before = latest.get(pageOf(payload));
      if (before && before.version >= payload.version) continue;
      const after = pricingDocumentOf(payload);
      latest.set(pageOf(payload), after);
      diffPricing(before ?? { ...after, plans: [] }, after).forEach((change, index) => {
        rows.push({
          eventTransactionId: position.transactionId,
          eventSeq: String(position.seq),
          changeIndex: index,
          companySlug: payload.company_slug,
          pageSlug: payload.page_slug,
          compositeSlug: payload.composite_slug,
          fromVersion: before?.version ?? null,
          toVersion: payload.version,
          eventType: change.event_type,
          plan: change.plan,
          chargeBilling: change.charge?.billing ?? null,
          chargeDisplayName: change.charge?.display_name ?? null,
          discount: change.discount,
          field: change.field,
          oldValue: JSON.stringify(change.old_value),
          newValue: JSON.stringify(change.new_value),
          recordedAt: event.recordedAt,
          oldMonthlyEquivalent: change.old_monthly_equivalent ?? null,
          newMonthlyEquivalent: change.new_monthly_equivalent ?? null,
          changePercent: change.change_percent ?? null,
          significance: change.significance,
        });
      });
    }
    // Rows go in in position order, inside the transaction that moves the checkpoint: see
    // PricingChangeReader for why that keeps the feed's cursor safe.
    await this.tables.pricingChanges.insert(tx, rows);
  }

  clear(tx: Transaction): Promise<void> {
    return this.tables.pricingChanges.clear(tx);
  }
}
