import { describe, expect, it } from 'vitest';
import type { PricingDocument } from '../pricing-document.js';
import { exportText, type ExportFormat } from './pricing-export.js';

type Plan = PricingDocument['plans'][number];
type Charge = Plan['charges'][number];

const charge = (overrides: Partial<Charge>): Charge => ({
  id: 'c',
  billing: 'monthly_recurring_billed_monthly',
  currency: 'USD',
  price: 10,
  charge_type: 'recurring',
  pricing_metric: null,
  usage_type: null,
  display_name: 'Monthly',
  price_display: null,
  included_quantity: null,
  overage_info: null,
  ...overrides,
});

const document = (version: string, plans: PricingDocument['plans']): PricingDocument => ({
  slug: 'acme.team',
  company_slug: 'acme.io',
  page_subslug: 'team',
  page_id: 'p',
  version,
  scrape: { id: 's', version, page_url: 'https://acme.io/pricing', created_at: 'now' },
  plans,
});

const FIRST = document('20250101', [
  {
    id: 'p1',
    display_name: 'Pro, "yearly"',
    internal_name: 'pro',
    add_on: false,
    charges: [
      charge({
        billing: 'annual_recurring_billed_yearly',
        price: 120,
        display_name: 'Pro\nyearly',
        pricing_metric: { id: 'm', display_name: 'per seat', modality: 'user_based' },
        usage_type: 'licensed',
      }),
      charge({ billing: 'one_time', price: null, display_name: 'Setup' }),
    ],
    discounts: [],
  },
  {
    id: 'p2',
    display_name: 'Empty',
    internal_name: 'empty',
    add_on: true,
    charges: [],
    discounts: [],
  },
]);
const SECOND = document('20250201', [
  {
    id: 'p3',
    display_name: 'Free',
    internal_name: 'free',
    add_on: true,
    charges: [charge({ billing: 'freemium', price: null, display_name: 'Free\r\ntier' })],
    discounts: [],
  },
]);

async function* chunks(...lists: PricingDocument[][]): AsyncGenerator<PricingDocument[]> {
  yield* lists;
}

async function text(format: ExportFormat, ...lists: PricingDocument[][]): Promise<string[]> {
  const parts: string[] = [];
  for await (const part of exportText(format, chunks(...lists))) parts.push(part);
  return parts;
}

describe('exportText', () => {
  it('writes CSV per RFC 4180: header, one CRLF line per charge, quoted when it must be', async () => {
    expect(await text('csv', [FIRST], [SECOND])).toEqual([
      'slug,company_slug,page_subslug,version,plan_internal_name,plan_display_name,add_on,' +
        'charge_display_name,billing,charge_type,usage_type,currency,price,monthly_equivalent,' +
        'modality\r\n',
      'acme.team,acme.io,team,20250101,pro,"Pro, ""yearly""",false,"Pro\nyearly",' +
        'annual_recurring_billed_yearly,recurring,licensed,USD,120,10,user_based\r\n' +
        'acme.team,acme.io,team,20250101,pro,"Pro, ""yearly""",false,Setup,one_time,recurring,' +
        ',USD,,,\r\n',
      'acme.team,acme.io,team,20250201,free,Free,true,"Free\r\ntier",freemium,recurring,,USD,,0,' +
        '\r\n',
    ]);
  });

  it('writes the header alone when there is nothing to export', async () => {
    expect((await text('csv')).join('')).toBe(
      'slug,company_slug,page_subslug,version,plan_internal_name,plan_display_name,add_on,' +
        'charge_display_name,billing,charge_type,usage_type,currency,price,monthly_equivalent,' +
        'modality\r\n',
    );
    expect(await text('ndjson')).toEqual([]);
  });

  it('writes NDJSON: each document as the pricing route gives it, monthly equivalents in', async () => {
    const parts = await text('ndjson', [FIRST, SECOND]);
    expect(parts).toHaveLength(1);
    const lines = parts[0]!.split('\n');
    expect(lines.pop()).toBe('');
    const [pro, empty] = FIRST.plans as [Plan, Plan];
    const [free] = SECOND.plans as [Plan];
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      {
        ...FIRST,
        plans: [
          {
            ...pro,
            charges: [
              { ...pro.charges[0], monthly_equivalent: 10 },
              { ...pro.charges[1], monthly_equivalent: null },
            ],
          },
          empty,
        ],
      },
      { ...SECOND, plans: [{ ...free, charges: [{ ...free.charges[0], monthly_equivalent: 0 }] }] },
    ]);
  });
});
