import { describe, expect, it } from 'vitest';
import type { PricingDocument } from '../pricing-document.js';
import { ExchangeRateBook } from './exchange-rates.js';
import { exportText, type ExportConversion, type ExportFormat } from './pricing-export.js';

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

async function text(
  format: ExportFormat,
  lists: PricingDocument[][],
  convert?: ExportConversion,
): Promise<string[]> {
  const parts: string[] = [];
  for await (const part of exportText(format, chunks(...lists), convert)) parts.push(part);
  return parts;
}

describe('exportText', () => {
  it('writes CSV per RFC 4180: header, one CRLF line per charge, quoted when it must be', async () => {
    // One part per document, both documents in one chunk.
    expect(await text('csv', [[FIRST, SECOND]])).toEqual([
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
    expect((await text('csv', [])).join('')).toBe(
      'slug,company_slug,page_subslug,version,plan_internal_name,plan_display_name,add_on,' +
        'charge_display_name,billing,charge_type,usage_type,currency,price,monthly_equivalent,' +
        'modality\r\n',
    );
    expect(await text('ndjson', [])).toEqual([]);
  });

  it('writes NDJSON: each document as the pricing route gives it, monthly equivalents in', async () => {
    const parts = await text('ndjson', [[FIRST, SECOND]]);
    // One part per document, so that a writer never holds a chunk's text at once.
    expect(parts).toHaveLength(2);
    expect(parts.every((part) => part.indexOf('\n') === part.length - 1)).toBe(true);
    const lines = parts.map((part) => part.slice(0, -1));
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

  describe('text a spreadsheet would run as a formula', () => {
    const planNamed = (name: string, charges: Charge[]): Plan => ({
      id: name,
      display_name: name,
      internal_name: 'plan',
      add_on: false,
      charges,
      discounts: [],
    });

    it("writes a leading ' before =, +, -, @, a tab or a carriage return, then quotes per RFC 4180; NDJSON keeps the text", async () => {
      const cells: [captured: string, written: string][] = [
        ['=HYPERLINK("https://evil.example","x")', `"'=HYPERLINK(""https://evil.example"",""x"")"`],
        ['+1+2', "'+1+2"],
        ['-2+3', "'-2+3"],
        ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
        ['\tTab', `"'\tTab"`],
        ['\rReturn', `"'\rReturn"`],
        ['=1,2', `"'=1,2"`],
        // Split on semicolons (as some locales do), the second cell would be a formula.
        ['Pro;=1+1', '"Pro;=1+1"'],
      ];
      const charges = cells.map(([captured]) => charge({ display_name: captured }));
      const extraction = document('20250101', [planNamed('Plan', charges)]);
      const [, body] = await text('csv', [[extraction]]);
      expect(body).toBe(
        cells
          .map(
            ([, written]) =>
              `acme.team,acme.io,team,20250101,plan,Plan,false,${written},` +
              'monthly_recurring_billed_monthly,recurring,,USD,10,10,\r\n',
          )
          .join(''),
      );

      const [line] = await text('ndjson', [[extraction]]);
      const answer = JSON.parse(line!) as PricingDocument;
      expect(answer.plans[0]!.charges.map((each) => each.display_name)).toEqual(
        cells.map(([captured]) => captured),
      );
    });

    it('prefixes a plan name as a charge name, never a number however negative, a boolean or an empty cell', async () => {
      const plan = planNamed('=1+1', [charge({ price: -5, display_name: 'a=b-c' })]);
      const [, body] = await text('csv', [[document('20250101', [plan])]]);
      expect(body).toBe(
        "acme.team,acme.io,team,20250101,plan,'=1+1,false,a=b-c," +
          'monthly_recurring_billed_monthly,recurring,,USD,-5,-5,\r\n',
      );
    });
  });

  describe('converting', () => {
    // 1 EUR = 1.25 USD from 20250115: the first extraction (20250101) has no rate yet.
    const book = new ExchangeRateBook([
      { date: '20250115', base: 'EUR', quote: 'USD', rate: 1.25 },
    ]);
    const asked: PricingDocument[][] = [];
    const toEur: ExportConversion = (documents) => {
      asked.push(documents);
      return Promise.resolve({ currency: 'EUR', rates: book });
    };

    it('reads the rates of each chunk for it, and writes the documents as the pricing route does', async () => {
      asked.length = 0;
      const [line] = await text('ndjson', [[SECOND]], toEur);
      expect(asked).toEqual([[SECOND]]);
      const answer = JSON.parse(line!) as Record<string, unknown> & {
        plans: { charges: Record<string, unknown>[] }[];
      };
      expect(answer).toMatchObject({ currency: 'EUR', unconverted: 0 });
      expect(Object.keys(answer).slice(-2)).toEqual(['currency', 'unconverted']);
      expect(answer.plans[0]!.charges[0]).toMatchObject({
        monthly_equivalent: 0,
        converted: { currency: 'EUR', monthly_equivalent: 0, rate: 0.8, rate_date: '20250115' },
      });
    });

    it('adds the converted figure to each CSV line, empty where there is none', async () => {
      const [header, first, second] = await text('csv', [[FIRST], [SECOND]], toEur);
      expect(header).toMatch(
        /,modality,converted_currency,converted_monthly_equivalent,rate,rate_date\r\n$/,
      );
      // No rate on or before 20250101, and a one-time fee has no monthly equivalent anyway.
      const lines = first!.split('\r\n').filter(Boolean);
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(line.split(',').slice(-4)).toEqual(['', '', '', '']);
      expect(second).toMatch(/,freemium,recurring,,USD,,0,,EUR,0,0\.8,20250115\r\n$/);
    });
  });
});
