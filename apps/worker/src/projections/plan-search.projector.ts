import { Injectable } from '@nestjs/common';
import {
  CompanyProfileChanged,
  CompanyRegistered,
  ExchangeRateRecorded,
  PricingExtracted,
  PricingPageRegistered,
  ScrapeCaptured,
  lowestMonthlyEquivalent,
  monthlyEquivalent,
  pricePlan,
  unhandledEvent,
  type CompanyProfile,
  type DecodedEvent,
  type PricingExtractedPayload,
} from '#app/domain';
import {
  ReadModelTables,
  Transaction,
  type PlanSearchCompanyFields,
  type PlanSearchPageRows,
} from '#app/persistence';
import { BatchProfiles } from './batch-profiles.js';
import { pricingDocumentOf } from './pricing-document-of.js';
import type { Projector } from './projector.js';

/** The company fields each plan row carries, for the filters and the sort by name. */
const companyFields = (
  profile: Pick<CompanyProfile, 'name' | 'category' | 'employees'>,
): PlanSearchCompanyFields => ({
  companyName: profile.name,
  companyNameKey: profile.name.toLowerCase(),
  category: profile.category,
  employees: profile.employees,
});

/**
 * The plan search (GET /v1/api/plans): the plans of each page's latest extraction by version.
 * Extractions may arrive out of order: one of a version older than the page's held one, or
 * the same again, changes nothing.
 *
 * The company's name, category and size band are copied onto every plan row rather than
 * joined from the companies read model: a search at 100,000 plans then filters, sorts and
 * counts on one table, each sort read in order from one index (a join would sort all the
 * matches for every page of them). A profile change rewrites its company's few plan rows. The
 * projector keeps its own copy of the profiles, from the company events, because another
 * projector's read model may stand at another place in the log.
 */
@Injectable()
export class PlanSearchProjector implements Projector {
  readonly name = 'plan-search';

  constructor(private readonly tables: ReadModelTables) {}

  async apply(tx: Transaction, events: DecodedEvent[]): Promise<void> {
    const profiles = new BatchProfiles();
    // Of each page, the batch's latest extraction: the others could only be replaced by it.
    const latest = new Map<string, PricingExtractedPayload>();
    for (const event of events) {
      switch (event.type) {
        case CompanyRegistered.TYPE:
        case CompanyProfileChanged.TYPE:
          profiles.add(event);
          break;
        case PricingExtracted.TYPE: {
          const extraction = event.payload;
          const seen = latest.get(extraction.page_id);
          if (!seen || seen.version < extraction.version)
            latest.set(extraction.page_id, extraction);
          break;
        }
        // Rates are read when a search converts, from the exchange-rates read model.
        case ExchangeRateRecorded.TYPE:
        case PricingPageRegistered.TYPE:
        case ScrapeCaptured.TYPE:
          break;
        default:
          unhandledEvent(event);
      }
    }
    const search = this.tables.planSearch;
    // Profiles first: the plans written below take each company's profile as the batch leaves it.
    await search.insertCompanies(
      tx,
      [...profiles.registered.values()].map(({ slug, name, category, employees }) => ({
        slug,
        name,
        category,
        employees,
      })),
    );
    for (const { slug, name, category, employees } of profiles.changed.values()) {
      await search.changeCompany(
        tx,
        { slug, name, category, employees },
        companyFields({ name, category, employees }),
      );
    }
    if (latest.size === 0) return;
    const held = await search.versionsOf(tx, [...latest.keys()]);
    const newer = [...latest.values()].filter((extraction) => {
      const version = held.get(extraction.page_id);
      return version === undefined || version < extraction.version;
    });
    const companies = await search.companiesBySlug(tx, [
      ...new Set(newer.map((extraction) => extraction.company_slug)),
    ]);
    await search.removePages(
      tx,
      newer.filter(({ page_id }) => held.has(page_id)).map(({ page_id }) => page_id),
    );
    await search.insertPages(
      tx,
      newer.map((extraction) => {
        const company = companies.get(extraction.company_slug);
        // The log holds a company before any extraction of its pages.
        if (!company) throw new Error(`plan search: no company ${extraction.company_slug}`);
        return pageRows(extraction, companyFields(company));
      }),
    );
  }

  clear(tx: Transaction): Promise<void> {
    return this.tables.planSearch.clear(tx);
  }
}

/** The rows of one extraction: its page, and each plan with its charges and discounts. */
function pageRows(
  extraction: PricingExtractedPayload,
  company: PlanSearchCompanyFields,
): PlanSearchPageRows {
  const { page_id: pageId, version } = extraction;
  const document = pricingDocumentOf(extraction);
  const rows: PlanSearchPageRows = {
    page: { pageId, companySlug: extraction.company_slug, version },
    plans: [],
    charges: [],
    discounts: [],
  };
  document.plans.forEach((plan, planIndex) => {
    // Unrounded, for the filters and the sort; the plan's text carries them rounded.
    const lowest = lowestMonthlyEquivalent(plan, version);
    rows.plans.push({
      pageId,
      planIndex,
      compositeSlug: document.slug,
      companySlug: document.company_slug,
      ...company,
      version,
      internalName: plan.internal_name,
      addOn: plan.add_on,
      freeTier: plan.charges.some((charge) => charge.billing === 'freemium' || charge.price === 0),
      planCount: document.plans.length,
      lowestMonthly: lowest,
      monthlyMissing: lowest === null,
      plan: JSON.stringify(pricePlan(plan, version).plan),
    });
    plan.charges.forEach((charge, chargeIndex) => {
      rows.charges.push({
        pageId,
        planIndex,
        chargeIndex,
        companySlug: document.company_slug,
        category: company.category,
        employees: company.employees,
        billing: charge.billing,
        chargeType: charge.charge_type,
        modality: charge.pricing_metric?.modality ?? null,
        usageType: charge.usage_type,
        currency: charge.currency,
        monthlyEquivalent: monthlyEquivalent(charge.billing, charge.price),
        version,
      });
    });
    plan.discounts.forEach((discount, discountIndex) => {
      rows.discounts.push({
        pageId,
        planIndex,
        discountIndex,
        discountCategory: discount.discount_category,
      });
    });
  });
  return rows;
}
