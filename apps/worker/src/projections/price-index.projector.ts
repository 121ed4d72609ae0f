import { Injectable } from '@nestjs/common';
import {
  CompanyProfileChanged,
  CompanyRegistered,
  ExchangeRateRecorded,
  PricingExtracted,
  PricingPageRegistered,
  ScrapeCaptured,
  entryPriceCandidates,
  unhandledEvent,
  type CompanyProfile,
  type DecodedEvent,
  type PricingExtractedPayload,
} from '#app/domain';
import {
  ReadModelTables,
  Transaction,
  type PriceIndexEnd,
  type PriceIndexEntryEntity,
  type PriceIndexVersionEntity,
} from '#app/persistence';
import { BatchProfiles } from './batch-profiles.js';
import { pricingDocumentOf } from './pricing-document-of.js';
import type { Projector } from './projector.js';

const companyRow = ({ slug, category, employees }: CompanyProfile) => ({
  slug,
  category,
  employees,
});

/**
 * The price index (GET /v1/api/benchmarks and /benchmarks/series): every extraction of every
 * page, in force from its version until the page's next one, with its entry-price candidates.
 * Extractions may arrive out of order: one older than the page's latest is slotted in between
 * its neighbours, ending the one before it and ended by the one after, as the pricing
 * snapshots' "latest on or before a date" reads them whatever order they came in.
 *
 * The company's category and size band are copied onto every entry, as the plan search copies
 * them, from the projector's own copy of the profiles; a profile change rewrites its company's
 * entries.
 */
@Injectable()
export class PriceIndexProjector implements Projector {
  readonly name = 'price-index';

  constructor(private readonly tables: ReadModelTables) {}

  async apply(tx: Transaction, events: DecodedEvent[]): Promise<void> {
    const profiles = new BatchProfiles();
    const arrived = new Map<string, PricingExtractedPayload[]>();
    for (const event of events) {
      switch (event.type) {
        case CompanyRegistered.TYPE:
        case CompanyProfileChanged.TYPE:
          profiles.add(event);
          break;
        case PricingExtracted.TYPE: {
          const extraction = event.payload;
          const ofPage = arrived.get(extraction.page_id);
          if (ofPage) ofPage.push(extraction);
          else arrived.set(extraction.page_id, [extraction]);
          break;
        }
        // Rates are read when a sample converts, from the exchange-rates read model.
        case ExchangeRateRecorded.TYPE:
        case PricingPageRegistered.TYPE:
        case ScrapeCaptured.TYPE:
          break;
        default:
          unhandledEvent(event);
      }
    }
    const index = this.tables.priceIndex;
    // Profiles first: the entries written below take each company's profile as the batch leaves it.
    await index.insertCompanies(tx, [...profiles.registered.values()].map(companyRow));
    for (const profile of profiles.changed.values())
      await index.changeCompany(tx, companyRow(profile));
    if (arrived.size === 0) return;

    const pageIds = [...arrived.keys()];
    const latest = await index.latestVersions(tx, pageIds);
    // In order, an extraction only ends the page's latest; out of order, it goes between two.
    const outOfOrder = pageIds.filter((pageId) => {
      const held = latest.get(pageId);
      return held !== undefined && arrived.get(pageId)!.some(({ version }) => version < held);
    });
    const histories = await index.versionsOf(tx, outOfOrder);
    const companies = await index.companiesBySlug(tx, [
      ...new Set([...arrived.values()].flatMap((ofPage) => ofPage.map((e) => e.company_slug))),
    ]);

    const versions: PriceIndexVersionEntity[] = [];
    const entries: PriceIndexEntryEntity[] = [];
    const ends: PriceIndexEnd[] = [];
    for (const [pageId, ofPage] of arrived) {
      const held = histories.get(pageId) ?? [latest.get(pageId)].filter((v) => v !== undefined);
      const timeline = [
        ...held.map((version) => ({ version, extraction: null })),
        ...ofPage.map((extraction) => ({ version: extraction.version, extraction })),
      ].sort((a, b) => (a.version < b.version ? -1 : 1));
      timeline.forEach(({ version, extraction }, position) => {
        const next = timeline[position + 1];
        const until = next?.version ?? null;
        if (!extraction) {
          // A held extraction whose successor just arrived.
          if (next?.extraction) ends.push({ pageId, version, until: next.version });
          return;
        }
        versions.push({ pageId, version, until });
        const company = companies.get(extraction.company_slug);
        // The log holds a company before any extraction of its pages.
        if (!company) throw new Error(`price index: no company ${extraction.company_slug}`);
        entryPriceCandidates(pricingDocumentOf(extraction)).forEach((candidate, entryIndex) => {
          entries.push({
            pageId,
            version,
            entryIndex,
            until,
            companySlug: extraction.company_slug,
            category: company.category,
            employees: company.employees,
            ...candidate,
          });
        });
      });
    }
    await index.setEnds(tx, ends);
    await index.insertExtractions(tx, versions, entries);
  }

  clear(tx: Transaction): Promise<void> {
    return this.tables.priceIndex.clear(tx);
  }
}
