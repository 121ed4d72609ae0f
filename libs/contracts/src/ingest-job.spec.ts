import { describe, expect, it } from 'vitest';
import type { CompanyRecord, IngestRecord, PricingRecord, ScrapeRecord } from '#app/domain';
import { ingestChunkJobId, ingestJobId } from './ingest-job.js';

const company: CompanyRecord = {
  type: 'company',
  slug: 'notion.so',
  name: 'Notion',
  category: 'Productivity',
  employees: '501-1000',
  url: 'https://www.notion.so',
};

const scrape: ScrapeRecord = {
  type: 'scrape',
  company_slug: 'notion.so',
  page_slug: '',
  version: '20250115',
  page_url: 'https://www.notion.so/pricing',
  screenshot_url: null,
  markdown_url: null,
  html_url: null,
  ocr_url: null,
  scraper: 'scraper_1',
  valid: true,
  score: 7,
  banner_free: null,
};

const pricing: PricingRecord = {
  type: 'pricing',
  company_slug: 'notion.so',
  page_slug: '',
  version: '20250115',
  plans: [
    {
      display_name: 'Plus',
      internal_name: 'plus',
      add_on: false,
      charges: [
        {
          billing: 'monthly_recurring_billed_monthly',
          currency: 'USD',
          price: 10,
          charge_type: 'recurring',
          pricing_metric: { display_name: 'per seat', modality: 'user_based' },
          display_name: 'Plus monthly',
        },
      ],
      discounts: [],
    },
  ],
};

const BATCH = '5f0c2a3e-1b4d-4c6e-8f9a-0b1c2d3e4f50';
const id = (record: IngestRecord) => ingestJobId(record, BATCH);

describe('ingestJobId', () => {
  it('is deterministic', () => {
    for (const record of [company, scrape, pricing]) {
      expect(id(record)).toBe(id(structuredClone(record)));
    }
  });

  it('contains no colon (BullMQ refuses custom ids with one)', () => {
    for (const record of [company, scrape, pricing]) expect(id(record)).not.toContain(':');
  });

  it('starts with the record type (the job name) and ends with the batch', () => {
    expect(id(company)).toMatch(new RegExp(`^company-[0-9a-f]+-[0-9a-f]+-${BATCH}$`));
    expect(id(pricing)).toMatch(new RegExp(`^pricing-[0-9a-f]+-[0-9a-f]+-${BATCH}$`));
  });

  it('differs from one batch to the next: the event log, not the queue, tells duplicates', () => {
    expect(ingestJobId(company, 'a-batch')).not.toBe(ingestJobId(company, 'another-batch'));
  });

  it('is the same for the same record with keys in another order', () => {
    const reordered: CompanyRecord = {
      url: company.url,
      employees: company.employees,
      category: company.category,
      name: company.name,
      slug: company.slug,
      type: 'company',
    };
    expect(id(reordered)).toBe(id(company));
    const charge = pricing.plans[0]!.charges[0]!;
    const nestedReordered: PricingRecord = {
      ...pricing,
      plans: [
        {
          discounts: [],
          charges: [
            {
              display_name: charge.display_name,
              pricing_metric: { modality: 'user_based', display_name: 'per seat' },
              charge_type: charge.charge_type,
              price: charge.price,
              currency: charge.currency,
              billing: charge.billing,
            },
          ],
          add_on: false,
          internal_name: 'plus',
          display_name: 'Plus',
        },
      ],
    };
    expect(id(nestedReordered)).toBe(id(pricing));
  });

  it('differs when the content differs under the same natural key', () => {
    const sameKeyIds = [
      id(company),
      id({ ...company, name: 'Notion Labs' }),
      id({ ...company, employees: '1000+' }),
    ];
    expect(new Set(sameKeyIds).size).toBe(3);
    // ...while the natural-key part stays the same, so the two are recognisably one key.
    const keyPart = (jobId: string) => jobId.split('-').slice(0, 2).join('-');
    expect(keyPart(sameKeyIds[1]!)).toBe(keyPart(sameKeyIds[0]!));
  });

  it('differs for different natural keys', () => {
    expect(id({ ...scrape, scraper: 'scraper_2' })).not.toBe(id(scrape));
    expect(id({ ...pricing, version: '20250116' })).not.toBe(id(pricing));
  });

  it('differs when a pricing price changes', () => {
    const changed = structuredClone(pricing);
    changed.plans[0]!.charges[0]!.price = 12;
    expect(id(changed)).not.toBe(id(pricing));
  });
});

describe('ingestChunkJobId', () => {
  const chunkId = (records: IngestRecord[], batch = BATCH, index = 0) =>
    ingestChunkJobId(records, batch, index);

  it('names the batch and the index, holds no colon, and is deterministic', () => {
    expect(chunkId([company, scrape], BATCH, 7)).toMatch(
      new RegExp(`^chunk-${BATCH}-7-[0-9a-f]{24}$`),
    );
    expect(chunkId([company, scrape])).toBe(chunkId(structuredClone([company, scrape])));
  });

  it('differs with the records, their order, the index and the batch', () => {
    const ids = [
      chunkId([company, scrape]),
      chunkId([scrape, company]),
      chunkId([company, { ...scrape, score: 8 }]),
      chunkId([company, scrape], BATCH, 1),
      chunkId([company, scrape], 'another-batch'),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });
});
