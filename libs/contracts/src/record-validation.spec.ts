import { describe, expect, it } from 'vitest';
import {
  ChargeInput,
  CompanyRecord,
  declaredLimit,
  MAX_JSON_DEPTH,
  maxLengthOf,
  PlanInput,
  PricingRecord,
  ScrapeRecord,
} from '#app/domain';
import { jsonShapeProblem, recordProblems } from './record-validation.js';

const SCRAPERS = ['scraper_1', 'scraper_2', 'scraper_3', 'scraper_4'];

const company = () => ({
  type: 'company',
  slug: 'notion.so',
  name: 'Notion',
  category: 'Productivity',
  employees: '501-1000',
  url: 'https://www.notion.so',
});

const page = () => ({
  type: 'page',
  company_slug: 'notion.so',
  page_slug: 'enterprise',
  pricing_page_url: 'https://www.notion.so/pricing/enterprise',
});

const scrape = () => ({
  type: 'scrape',
  company_slug: 'notion.so',
  page_slug: '',
  version: '20250115',
  page_url: 'https://www.notion.so/pricing',
  screenshot_url: 'https://files.example.com/notion.png',
  markdown_url: null,
  html_url: 'http://files.example.com/notion.html',
  ocr_url: null,
  scraper: 'scraper_1',
  valid: true,
  score: 7,
  banner_free: null,
});

const charge = (): Record<string, unknown> => ({
  billing: 'monthly_recurring_billed_monthly',
  currency: 'USD',
  price: 10,
  charge_type: 'recurring',
  pricing_metric: { display_name: 'per seat', modality: 'user_based' },
  usage_type: 'licensed',
  display_name: 'Plus monthly',
  price_display: '$10 per seat/month',
  included_quantity: null,
  overage_info: null,
});

const discount = (): Record<string, unknown> => ({
  discount_category: 'annual_discount',
  amount_type: 'percentage',
  amount: 20,
  description: 'Save 20% when billed yearly',
  duration: 'annual',
});

const pricing = (
  chargeOverride: Record<string, unknown> = {},
  discountOverride: Record<string, unknown> = {},
) => ({
  type: 'pricing',
  company_slug: 'notion.so',
  page_slug: '',
  version: '20250115',
  scraper: 'scraper_2',
  plans: [
    {
      display_name: 'Plus',
      internal_name: 'plus',
      add_on: false,
      charges: [{ ...charge(), ...chargeOverride }],
      discounts: [{ ...discount(), ...discountOverride }],
    },
  ],
});

const exchangeRate = () => ({
  type: 'exchange_rate',
  date: '20250115',
  base: 'EUR',
  quote: 'USD',
  rate: 1.0842,
});

const problems = (value: unknown) => recordProblems(value, SCRAPERS);

/** A copy of the object without one field. */
function without(value: object, field: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...value };
  delete copy[field];
  return copy;
}

/** Asserts the record is refused and that some problem mentions every given text. */
async function expectRefused(value: unknown, ...texts: string[]): Promise<string[]> {
  const found = await problems(value);
  expect(found.length).toBeGreaterThan(0);
  for (const text of texts) {
    expect(
      found.some((problem) => problem.includes(text)),
      `${text} in ${found}`,
    ).toBe(true);
  }
  return found;
}

describe('recordProblems: valid records', () => {
  it.each([
    ['company', company()],
    ['page', page()],
    ['scrape', scrape()],
    ['pricing', pricing()],
    ['exchange_rate', exchangeRate()],
  ])('finds no problem in a valid %s record', async (_type, record) => {
    expect(await problems(record)).toEqual([]);
  });

  it('accepts a primary page (empty page slug) and an open employees band', async () => {
    expect(await problems({ ...page(), page_slug: '' })).toEqual([]);
    expect(await problems({ ...company(), employees: '1000+' })).toEqual([]);
  });

  it('accepts a scrape whose optional values are all null', async () => {
    const record = {
      ...scrape(),
      screenshot_url: null,
      markdown_url: null,
      html_url: null,
      ocr_url: null,
      valid: null,
      score: null,
      banner_free: null,
    };
    expect(await problems(record)).toEqual([]);
  });

  it('accepts scores 0 and 10', async () => {
    expect(await problems({ ...scrape(), score: 0 })).toEqual([]);
    expect(await problems({ ...scrape(), score: 10 })).toEqual([]);
  });

  it('accepts a pricing record without a scraper and with no plans', async () => {
    expect(await problems(without(pricing(), 'scraper'))).toEqual([]);
    expect(await problems({ ...pricing(), plans: [] })).toEqual([]);
  });

  it('accepts a null price (contact sales)', async () => {
    expect(await problems(pricing({ price: null, billing: 'pricing_not_disclosed' }))).toEqual([]);
  });

  it('accepts a price of zero', async () => {
    expect(await problems(pricing({ price: 0, billing: 'freemium' }))).toEqual([]);
  });

  it('accepts a null pricing_metric (flat charge)', async () => {
    expect(await problems(pricing({ pricing_metric: null, charge_type: 'flat' }))).toEqual([]);
  });

  it('accepts a charge without usage_type, price_display, included_quantity and overage_info', async () => {
    const record = pricing();
    const bare = { ...charge() };
    delete bare.usage_type;
    delete bare.price_display;
    delete bare.included_quantity;
    delete bare.overage_info;
    record.plans[0]!.charges = [bare];
    expect(await problems(record)).toEqual([]);
  });

  it('accepts a null usage_type', async () => {
    expect(await problems(pricing({ usage_type: null }))).toEqual([]);
  });

  it('accepts any lower-case identifier in the open vocabularies (docs/API.md, Record types and fields)', async () => {
    expect(await problems(pricing({ usage_type: 'subscription' }))).toEqual([]);
    expect(await problems(pricing({}, { discount_category: 'flash_sale' }))).toEqual([]);
    expect(await problems(pricing({ charge_type: 'per_unit_tiered' }))).toEqual([]);
    expect(await problems(pricing({}, { amount_type: 'fixed_amount' }))).toEqual([]);
    expect(
      await problems(
        pricing({ pricing_metric: { display_name: 'per GB', modality: 'storage_based' } }),
      ),
    ).toEqual([]);
  });

  it('accepts a lower-case billing value the interface has not listed (billing is open)', async () => {
    // docs/API.md, "Record types and fields", names billing among the open vocabularies.
    expect(await problems(pricing({ billing: 'quarterly_recurring_billed_quarterly' }))).toEqual(
      [],
    );
  });

  it.each(['scraper_1', 'scraper_4'])('accepts the configured scraper %s', async (scraper) => {
    expect(await problems({ ...scrape(), scraper })).toEqual([]);
  });
});

describe('recordProblems: refusals', () => {
  it('refuses a value that is not an object', async () => {
    for (const value of [null, 'company', 42, [company()]]) {
      await expectRefused(value, 'JSON object');
    }
  });

  it('refuses an unknown type and lists the types', async () => {
    const found = await expectRefused({ ...company(), type: 'invoice' }, 'type');
    expect(found.join('\n')).toContain('company, page, scrape, pricing, exchange_rate');
    await expectRefused({ slug: 'notion.so' }, 'type');
  });

  it.each(['Notion.so', 'notion so', '-notion.so', 'notion..so', ''])(
    'refuses the company slug %j',
    async (slug) => {
      await expectRefused({ ...company(), slug }, 'slug');
    },
  );

  it('refuses a company slug longer than 255 characters', async () => {
    const slug = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(64)}`;
    await expectRefused({ ...company(), slug }, 'slug');
  });

  it('refuses a bad company slug on a page, a scrape and a pricing record', async () => {
    await expectRefused({ ...page(), company_slug: 'Notion' }, 'company_slug');
    await expectRefused({ ...scrape(), company_slug: 'Notion' }, 'company_slug');
    await expectRefused({ ...pricing(), company_slug: 'Notion' }, 'company_slug');
  });

  it.each(['Enterprise', 'team.plan', '-x', 'a b'])('refuses the page slug %j', async (slug) => {
    await expectRefused({ ...page(), page_slug: slug }, 'page_slug');
    await expectRefused({ ...scrape(), page_slug: slug }, 'page_slug');
  });

  it('refuses a page slug longer than 100 characters on every record that names a page', async () => {
    // A page record refuses it (and the read models store at most 100), so a scrape or a
    // pricing record naming such a page can never succeed: it should fail at validation.
    const long = 'p'.repeat(101);
    await expectRefused({ ...page(), page_slug: long }, 'page_slug');
    await expectRefused({ ...scrape(), page_slug: long }, 'page_slug');
    await expectRefused({ ...pricing(), page_slug: long }, 'page_slug');
  });

  it('refuses a missing page slug', async () => {
    await expectRefused(without(page(), 'page_slug'), 'page_slug');
  });

  it('refuses an unknown category and lists the eight', async () => {
    const found = await expectRefused({ ...company(), category: 'Gaming' }, 'category');
    expect(found.join('\n')).toContain(
      'Communication, Productivity, Development, Marketing, Sales, Customer Support, Finance, HR',
    );
  });

  it('refuses a category in another case', async () => {
    await expectRefused({ ...company(), category: 'productivity' }, 'category');
  });

  it.each(['abc', '10', '51 - 200', ''])('refuses the employees value %j', async (employees) => {
    await expectRefused({ ...company(), employees }, 'employees');
  });

  it('refuses a range that ends below its start', async () => {
    await expectRefused({ ...company(), employees: '200-51' }, 'employees range');
  });

  it.each(['ftp://notion.so', 'notion.so', 'javascript:alert(1)', 'https://no spaces'])(
    'refuses the URL %j',
    async (url) => {
      await expectRefused({ ...company(), url }, 'url');
      await expectRefused({ ...page(), pricing_page_url: url }, 'pricing_page_url');
      await expectRefused({ ...scrape(), page_url: url }, 'page_url');
      await expectRefused({ ...scrape(), ocr_url: url }, 'ocr_url');
    },
  );

  it('refuses a URL longer than 2048 characters', async () => {
    await expectRefused({ ...company(), url: `https://x.io/${'a'.repeat(2048)}` }, 'url');
  });

  it('refuses a version that is not YYYYMMDD', async () => {
    await expectRefused({ ...scrape(), version: '2025-01-15' }, 'version');
    await expectRefused({ ...pricing(), version: '2025011' }, 'version');
  });

  it('refuses a version that is not a real calendar date', async () => {
    await expectRefused(
      { ...scrape(), version: '20250231' },
      'version must be a real calendar date',
    );
    await expectRefused({ ...pricing(), version: '20230229' }, 'real calendar date');
  });

  it('refuses an unknown scraper and lists the allowed ones', async () => {
    await expectRefused(
      { ...scrape(), scraper: 'scraper_9' },
      'scraper must be one of: scraper_1, scraper_2, scraper_3, scraper_4',
    );
    await expectRefused({ ...pricing(), scraper: 'scraper_9' }, 'scraper must be one of');
  });

  it('checks the scraper against the configured list', async () => {
    expect(await recordProblems({ ...scrape(), scraper: 'alpha' }, ['alpha'])).toEqual([]);
    const found = await recordProblems(scrape(), ['alpha', 'beta']);
    expect(found).toContain('scraper must be one of: alpha, beta');
  });

  it.each([11, -1, 7.5, '7'])('refuses the score %j', async (score) => {
    await expectRefused({ ...scrape(), score }, 'score');
  });

  it('refuses a non-boolean valid or banner_free', async () => {
    await expectRefused({ ...scrape(), valid: 'yes' }, 'valid');
    await expectRefused({ ...scrape(), banner_free: 1 }, 'banner_free');
  });

  it('refuses a scrape without its URL fields (null must be explicit)', async () => {
    await expectRefused(without(scrape(), 'screenshot_url'), 'screenshot_url');
  });

  it('refuses an unknown extra field, naming it', async () => {
    await expectRefused({ ...company(), sloganz: 'x' }, 'sloganz');
    await expectRefused({ ...scrape(), scrore: 7 }, 'scrore');
  });

  it('refuses an unknown extra field inside a charge', async () => {
    await expectRefused(pricing({ usage_typ: 'licensed' }), 'usage_typ');
  });

  it.each(['Monthly', 'billed monthly', ''])('refuses the billing value %j', async (billing) => {
    await expectRefused(pricing({ billing }), 'billing');
  });

  it.each(['usd', 'US', 'USDT', '$'])('refuses the currency %j', async (currency) => {
    await expectRefused(pricing({ currency }), 'currency');
  });

  it('refuses a negative or non-numeric price', async () => {
    await expectRefused(pricing({ price: -1 }), 'price');
    await expectRefused(pricing({ price: '10' }), 'price');
  });

  it('refuses a discount_category that is not lower-case', async () => {
    await expectRefused(pricing({}, { discount_category: 'Annual' }), 'discount_category');
  });

  it('refuses open vocabulary values that are not identifiers', async () => {
    await expectRefused(pricing({ usage_type: 'Pay As You Go' }), 'usage_type');
    await expectRefused(pricing({ charge_type: '1st' }), 'charge_type');
    await expectRefused(
      pricing({ pricing_metric: { display_name: 'per seat', modality: 'User' } }),
      'modality',
    );
  });

  it('refuses a plan without its charges list', async () => {
    const record = pricing();
    await expectRefused({ ...record, plans: [without(record.plans[0]!, 'charges')] }, 'charges');
  });

  it('refuses plans that are not an array', async () => {
    await expectRefused({ ...pricing(), plans: {} }, 'plans');
  });

  it('reports the problems of a nested charge with its path', async () => {
    const found = await expectRefused(pricing({ currency: 'usd' }), 'currency');
    expect(found.some((problem) => problem.startsWith('plans.0.charges.0.currency'))).toBe(true);
  });
});

describe('recordProblems: the declared bounds', () => {
  const maxBand = declaredLimit(CompanyRecord, 'employees', 'maxBound');
  const maxPlans = declaredLimit(PricingRecord, 'plans', 'maxItems');
  const maxCharges = declaredLimit(PlanInput, 'charges', 'maxItems');

  it('accepts employees bands whose numbers reach the 32-bit bound of employees_min', async () => {
    expect(await problems({ ...company(), employees: `${maxBand}+` })).toEqual([]);
    expect(await problems({ ...company(), employees: `0-${maxBand}` })).toEqual([]);
  });

  it.each([`${maxBand + 1}+`, `0-${maxBand + 1}`, '99999999999999999999+'])(
    'refuses the employees band %s, past what employees_min holds',
    async (employees) => {
      await expectRefused(
        { ...company(), employees },
        `employees band bounds must be at most ${maxBand}`,
      );
    },
  );

  it('refuses an employees band longer than its column, leading zeros included', async () => {
    const length = maxLengthOf(CompanyRecord, 'employees');
    expect(await problems({ ...company(), employees: `${'0'.repeat(length - 2)}1+` })).toEqual([]);
    await expectRefused(
      { ...company(), employees: `${'0'.repeat(length - 1)}1+` },
      `employees must be at most ${length} characters`,
    );
  });

  it('counts lengths in UTF-16 code units: an emoji is two, a variation selector one', async () => {
    const max = maxLengthOf(CompanyRecord, 'name');
    expect(await problems({ ...company(), name: '🙂'.repeat(max / 2 - 0.5) + 'a' })).toEqual([]);
    await expectRefused({ ...company(), name: '🙂'.repeat((max + 1) / 2) }, 'name must be 1 to');
    // class-validator's MaxLength counts this as one character; PostgreSQL as 256.
    await expectRefused({ ...company(), name: `a${'\ufe0f'.repeat(max)}` }, 'name must be 1 to');
    await expectRefused(
      {
        ...company(),
        url: 'https://x.io/'.padEnd(maxLengthOf(CompanyRecord, 'url') + 1, '\ufe0f'),
      },
      'url must be at most',
    );
  });

  it('refuses an open vocabulary value longer than its bound', async () => {
    const long = `a${'b'.repeat(maxLengthOf(ChargeInput, 'billing'))}`;
    await expectRefused(pricing({ billing: long }), 'plans.0.charges.0.billing must be at most');
    await expectRefused(pricing({}, { amount_type: long }), 'plans.0.discounts.0.amount_type');
  });

  it('refuses a configured scraper longer than what the stream id leaves for it', async () => {
    const long = 's'.repeat(maxLengthOf(ScrapeRecord, 'scraper') + 1);
    const found = await recordProblems({ ...scrape(), scraper: long }, [long]);
    expect(found).toEqual([
      `scraper must be at most ${maxLengthOf(ScrapeRecord, 'scraper')} characters long`,
    ]);
  });

  it('accepts lists at their bounds and refuses one item more', async () => {
    const record = pricing();
    const [plan] = record.plans;
    const many = <T>(item: T, count: number) => Array.from({ length: count }, () => item);
    const atMost = { ...plan!, charges: many(charge(), maxCharges) };
    expect(await problems({ ...record, plans: many(atMost, maxPlans) })).toEqual([]);
    await expectRefused(
      { ...record, plans: many(plan, maxPlans + 1) },
      `plans must contain no more than ${maxPlans} elements`,
    );
    await expectRefused(
      {
        ...record,
        plans: [{ ...plan!, charges: many(charge(), maxCharges + 1) }],
      },
      'plans.0.charges must contain no more than',
    );
    await expectRefused(
      {
        ...record,
        plans: [
          {
            ...plan!,
            discounts: many(discount(), declaredLimit(PlanInput, 'discounts', 'maxItems') + 1),
          },
        ],
      },
      'plans.0.discounts must contain no more than',
    );
  });

  it('refuses a list far past its bound by its length alone, before checking its items', async () => {
    const [plan] = pricing().plans;
    // Checking each of 200,000 empty charges took the checking thread's whole heap.
    const charges = Array.from({ length: 200_000 }, () => ({}));
    expect(await problems({ ...pricing(), plans: [{ ...plan!, charges }] })).toEqual([
      `plans.0.charges must contain no more than ${maxCharges} elements`,
    ]);
  });

  it('gives at most 20 reasons for one record, saying how many more there are', async () => {
    const [plan] = pricing().plans;
    const empty = Array.from({ length: maxCharges }, () => ({}));
    const found = await problems({ ...pricing(), plans: [{ ...plan!, charges: empty }] });
    expect(found).toHaveLength(20);
    expect(found.slice(0, 19).every((reason) => reason.startsWith('plans.0.charges.'))).toBe(true);
    expect(found[19]).toMatch(/^and \d+ more problems$/);
    expect(Number(found[19]!.split(' ')[1])).toBeGreaterThan(100);
  });

  it('refuses a free-form value whose JSON text is longer than its bound', async () => {
    const max = declaredLimit(ChargeInput, 'included_quantity', 'maxJsonLength');
    const sized = (length: number) => ({ note: 'x'.repeat(length - '{"note":""}'.length) });
    expect(await problems(pricing({ included_quantity: sized(max) }))).toEqual([]);
    await expectRefused(
      pricing({ overage_info: sized(max + 1) }),
      `plans.0.charges.0.overage_info must be at most ${max} characters long as JSON`,
    );
  });

  it('refuses a lone UTF-16 surrogate in any text or key, naming where', async () => {
    await expectRefused(
      { ...company(), name: 'Notion\ud800' },
      'name: text must not contain a lone',
    );
    await expectRefused(
      { ...page(), pricing_page_url: 'https://x.io/\udc00' },
      'pricing_page_url:',
    );
    await expectRefused(
      pricing({ included_quantity: { seats: ['ok', '\udfff\ud800'] } }),
      'plans.0.charges.0.included_quantity.seats.1: text must not contain a lone',
    );
    await expectRefused(
      pricing({ overage_info: { '\ud83d': 1 } }),
      'plans.0.charges.0.overage_info.\ud83d: the key',
    );
    // A whole surrogate pair is a character like any other.
    expect(await problems({ ...company(), name: 'Notion 🙂' })).toEqual([]);
  });

  it('refuses a number JSON cannot hold (1e400 reads as Infinity) anywhere', async () => {
    await expectRefused(
      pricing({ price: Infinity }),
      'plans.0.charges.0.price: numbers must be finite',
    );
    await expectRefused(pricing({}, { amount: -Infinity }), 'plans.0.discounts.0.amount:');
    await expectRefused(
      pricing({ included_quantity: JSON.parse('{"calls": 1e400}') }),
      'plans.0.charges.0.included_quantity.calls: numbers must be finite',
    );
  });

  it('lets a free-form value nest down to the depth bound and no deeper', async () => {
    const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);
    // The record is level 1; plans, a plan, charges and a charge take four more.
    const levels = MAX_JSON_DEPTH - 5;
    expect(await problems(pricing({ included_quantity: nested(levels) }))).toEqual([]);
    await expectRefused(pricing({ included_quantity: nested(levels + 1) }), 'nest at most');
  });
});

describe('recordProblems: exchange rates', () => {
  it('accepts a rate just above 0 and a rate of exactly 1,000,000', async () => {
    expect(await problems({ ...exchangeRate(), rate: Number.MIN_VALUE })).toEqual([]);
    expect(await problems({ ...exchangeRate(), rate: 1_000_000 })).toEqual([]);
  });

  it.each(['usd', 'US', 'USDT', 'U$D', '', 840])('refuses the currency %j', async (code) => {
    expect(await problems({ ...exchangeRate(), base: code })).toEqual([
      'base must be a three-letter ISO 4217 code',
    ]);
    expect(await problems({ ...exchangeRate(), quote: code })).toEqual([
      'quote must be a three-letter ISO 4217 code',
    ]);
  });

  it('refuses a rate between a currency and itself, naming both fields', async () => {
    expect(await problems({ ...exchangeRate(), quote: 'EUR' })).toEqual([
      'base and quote must be different currencies',
    ]);
  });

  it.each([
    [0, 'rate must be greater than 0'],
    [-1.08, 'rate must be greater than 0'],
    [1_000_000.5, 'rate must not be greater than 1000000'],
    ['1.08', 'rate must be a number conforming to the specified constraints'],
    [null, 'rate must be a number conforming to the specified constraints'],
  ])('refuses the rate %j', async (rate, reason) => {
    expect(await problems({ ...exchangeRate(), rate })).toContain(reason);
  });

  it.each(['2025011', '2025-01-15', '20251315', '20250230', 20250115])(
    'refuses the date %j',
    async (date) => {
      await expectRefused({ ...exchangeRate(), date }, 'date must be');
    },
  );

  it('refuses a record without a rate, or with a field it does not declare', async () => {
    await expectRefused(without(exchangeRate(), 'rate'), 'rate');
    await expectRefused({ ...exchangeRate(), source: 'ECB' }, 'property source should not exist');
  });
});

describe('jsonShapeProblem', () => {
  it('finds nothing wrong in finite numbers and well-formed text', () => {
    expect(jsonShapeProblem({ a: [1.5, -0, 1e308, 'é🙂'], b: null })).toBeNull();
  });

  it('names the NaN, the Infinity and the lone surrogate it finds', () => {
    expect(jsonShapeProblem({ a: [NaN] })).toEqual({
      field: 'a.0',
      reason: 'numbers must be finite',
    });
    expect(jsonShapeProblem({ b: { c: '\udc00' } })?.field).toBe('b.c');
  });

  it('counts every value, containers included, against maxValues when given', () => {
    // The object, the array and its three numbers: five values.
    const value = { a: [1, 2, 3] };
    expect(jsonShapeProblem(value, { maxValues: 5 })).toBeNull();
    expect(jsonShapeProblem(value, { maxValues: 4 })?.reason).toBe(
      'a body holds at most 4 values in all',
    );
    expect(jsonShapeProblem(Array.from({ length: 100_000 }, () => 0))).toBeNull();
  });
});
