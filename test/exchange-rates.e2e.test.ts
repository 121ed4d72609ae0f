import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeRateReader, TransactionRunner } from '#app/persistence';
import { rebuildAndRead, type GeneralErrorBody } from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/**
 * exchange_rate records through the real ingestion path (POST /v1/ingest/records, the queue,
 * the worker, the log, the exchange-rates projector) into the exchange_rates read model, read
 * back by ExchangeRateReader, on the database the run is given.
 */

const environment = testEnvironment();
let api: TestApp;
let reader: ExchangeRateReader;
let ingestKey: string;

/** Rates of several pairs and dates; their values are exact in binary, and some are not. */
const RATES = [
  records.exchangeRate('20250101', { base: 'EUR', quote: 'USD', rate: 1.0842 }),
  records.exchangeRate('20250201', { base: 'EUR', quote: 'USD', rate: 1.0371 }),
  records.exchangeRate('20250101', { base: 'GBP', quote: 'USD', rate: 1.2512 }),
  records.exchangeRate('20250301', { base: 'USD', quote: 'GBP', rate: 0.7893 }),
  records.exchangeRate('20250101', { base: 'EUR', quote: 'GBP', rate: 0.8318 }),
  records.exchangeRate('20250101', { base: 'USD', quote: 'JPY', rate: 156.25 }),
  records.exchangeRate('20250102', { base: 'JPY', quote: 'IDR', rate: 1_000_000 }),
  records.exchangeRate('20250103', { base: 'IDR', quote: 'JPY', rate: 0.000123456789 }),
];

const sorted = <T extends { base: string; quote: string; date: string }>(rates: T[]) =>
  [...rates].sort(
    (a, b) =>
      a.base.localeCompare(b.base) ||
      a.quote.localeCompare(b.quote) ||
      a.date.localeCompare(b.date),
  );

const pair = ({ base, quote }: { base: string; quote: string }) => `${base}/${quote}`;

/** The fields of records, as the reader gives them. */
const asRates = (sent: typeof RATES) =>
  sorted(sent.map(({ date, base, quote, rate }) => ({ date, base, quote, rate })));

async function count(table: string): Promise<number> {
  const [row] = await api.app
    .get(TransactionRunner)
    .query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row?.n);
}

/** Waits until the reader shows `expected` for the pair given (projection runs in-process). */
function readable(target: string, currencies: string[], expected: number) {
  return waitFor(`${expected} rates into ${target}`, async () => {
    const rates = await reader.ratesFor(target, currencies);
    return rates.length === expected ? rates : undefined;
  });
}

async function push(batch: unknown[]): Promise<{ status: number; body: GeneralErrorBody }> {
  const response = await api.request('/ingest/records', {
    method: 'POST',
    headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(batch),
  });
  return { status: response.status, body: (await response.json()) as GeneralErrorBody };
}

beforeAll(async () => {
  api = await startTestApp(environment.config());
  reader = api.app.get(ExchangeRateReader);
  ingestKey = await api.createKey(['ingest']);
  const status = await api.settled(await api.ingest(RATES));
  expect(status.counts).toMatchObject({ done: RATES.length, failed: 0, duplicate: 0 });
  await waitFor('every rate to be projected', async () =>
    (await count('exchange_rates')) === RATES.length ? true : undefined,
  );
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('exchange_rate records through POST /v1/ingest/records', () => {
  it('are appended as exchange-rate.recorded.v1, one stream per date, base and quote', async () => {
    const events = await api.app.get(TransactionRunner).query<{
      stream_id: string;
      type: string;
    }>("SELECT stream_id, type FROM events WHERE stream_id = 'exchange-rate-20250101/EUR/USD'");
    expect(events).toEqual([
      { stream_id: 'exchange-rate-20250101/EUR/USD', type: 'exchange-rate.recorded.v1' },
    ]);
  });

  it('are read back by ratesFor: either way round between the target and the currencies', async () => {
    const rates = await reader.ratesFor('USD', ['EUR', 'GBP']);
    expect(rates).toEqual(
      asRates(
        RATES.filter(
          (rate) =>
            (['EUR', 'GBP'].includes(rate.base) && rate.quote === 'USD') ||
            (rate.base === 'USD' && ['EUR', 'GBP'].includes(rate.quote)),
        ),
      ),
    );
    expect(rates.map(({ base, quote, date }) => `${base}/${quote} ${date}`)).toEqual([
      'EUR/USD 20250101',
      'EUR/USD 20250201',
      'GBP/USD 20250101',
      'USD/GBP 20250301',
    ]);
    expect(await reader.ratesFor('GBP', ['EUR'])).toEqual(
      asRates(RATES.filter((rate) => rate.base === 'EUR' && rate.quote === 'GBP')),
    );
  });

  it('give each rate back as the number sent, a JavaScript number on either database', async () => {
    const rates = await reader.ratesFor('JPY', ['USD', 'IDR']);
    expect(rates).toEqual(
      asRates(RATES.filter((rate) => ['IDR/JPY', 'JPY/IDR', 'USD/JPY'].includes(pair(rate)))),
    );
    for (const rate of rates) expect(typeof rate.rate).toBe('number');
    expect(rates.map((rate) => rate.rate)).toEqual([0.000123456789, 1_000_000, 156.25]);
  });

  it('answers no rate for no currencies, for a currency without rates, and never a chain', async () => {
    expect(await reader.ratesFor('USD', [])).toEqual([]);
    expect(await reader.ratesFor('CHF', ['EUR', 'USD'])).toEqual([]);
    // EUR -> USD -> JPY would be a chain: the reader gives only rates between the two.
    expect(await reader.ratesFor('JPY', ['EUR'])).toEqual([]);
  });

  it('treat the same record sent again as a duplicate: nothing is appended', async () => {
    const before = await count('events');
    const status = await api.settled(await api.ingest([RATES[0]!]));
    expect(status.counts).toMatchObject({ duplicate: 1, done: 0, failed: 0 });
    expect(await count('events')).toBe(before);
  });

  it('refuse another rate under a known date, base and quote, and keep the first', async () => {
    const before = await count('events');
    const status = await api.settled(await api.ingest([{ ...RATES[0]!, rate: 1.1 }]));
    expect(status.counts).toMatchObject({ failed: 1, done: 0 });
    expect(status.failures[0]).toMatchObject({ index: 0, type: 'exchange_rate' });
    expect(status.failures[0]?.reason).toMatch(
      /^exchange_rate 20250101\/EUR\/USD is already recorded with other content \(sha256 [0-9a-f]{16}, event \d+/,
    );
    expect(await count('events')).toBe(before);
    const [first] = await reader.ratesFor('USD', ['EUR']);
    expect(first).toEqual({ date: '20250101', base: 'EUR', quote: 'USD', rate: 1.0842 });
  });

  it('are another record under another date, the same pair the other way round included', async () => {
    const more = [
      records.exchangeRate('20250401', { rate: 1.0764 }),
      records.exchangeRate('20250101', { base: 'USD', quote: 'EUR', rate: 0.9223 }),
    ];
    const status = await api.settled(await api.ingest(more));
    expect(status.counts).toMatchObject({ done: 2, failed: 0 });
    const rates = await readable('USD', ['EUR'], 4);
    expect(rates.map(({ base, quote, date }) => `${base}/${quote} ${date}`)).toEqual([
      'EUR/USD 20250101',
      'EUR/USD 20250201',
      'EUR/USD 20250401',
      'USD/EUR 20250101',
    ]);
  });
});

describe('an invalid exchange_rate record', () => {
  const valid = records.exchangeRate('20250501', { base: 'CHF', quote: 'EUR', rate: 1.05 });

  /** Each rule broken once, with the reasons the answer gives for it. */
  const INVALID: [string, unknown, string[]][] = [
    [
      'base equal to quote',
      { ...valid, quote: 'CHF' },
      ['base and quote must be different currencies'],
    ],
    ['a lower-case base', { ...valid, base: 'chf' }, ['base must be a three-letter ISO 4217 code']],
    [
      'a four-letter quote',
      { ...valid, quote: 'EURO' },
      ['quote must be a three-letter ISO 4217 code'],
    ],
    ['a rate of 0', { ...valid, rate: 0 }, ['rate must be greater than 0']],
    ['a negative rate', { ...valid, rate: -1.05 }, ['rate must be greater than 0']],
    [
      'a rate above 1,000,000',
      { ...valid, rate: 1_000_001 },
      ['rate must not be greater than 1000000'],
    ],
    [
      'a rate as text',
      { ...valid, rate: '1.05' },
      ['rate must be a number conforming to the specified constraints'],
    ],
    ['a date not YYYYMMDD', { ...valid, date: '2025-05-01' }, ['date must be YYYYMMDD']],
    [
      'a date not in the calendar',
      { ...valid, date: '20250230' },
      ['date must be a real calendar date'],
    ],
    [
      'a field it does not declare',
      { ...valid, source: 'ECB' },
      ['source: property source should not exist'],
    ],
  ];

  it.each(INVALID)(
    'with %s is refused with a 400 naming the field',
    async (_label, record, reasons) => {
      const { status, body } = await push([valid, record]);
      expect(status).toBe(400);
      expect(body).toEqual({
        error: 'Bad Request',
        message: '1 of 2 records are invalid; nothing was queued',
        details: { invalid: [{ index: 1, type: 'exchange_rate', reasons }] },
      });
    },
  );

  it('queues nothing of its batch: the valid record beside it is not recorded', async () => {
    expect(await reader.ratesFor('EUR', ['CHF'])).toEqual([]);
  });

  it('with a rate too large for a double (1e400) is refused, not stored as null', async () => {
    const response = await api.request('/ingest/records', {
      method: 'POST',
      headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
      body: JSON.stringify([valid]).replace('1.05', '1e400'),
    });
    const body = (await response.json()) as GeneralErrorBody;
    expect(response.status).toBe(400);
    expect(body.details).toEqual({
      invalid: [{ index: 0, type: 'exchange_rate', reasons: ['rate: numbers must be finite'] }],
    });
  });
});

describe('rebuilding the read models', () => {
  it('clears exchange_rates and fills it again with the same rows', async () => {
    const readAll = () =>
      api.app
        .get(TransactionRunner)
        .query('SELECT date, base, quote, rate FROM exchange_rates ORDER BY base, quote, date');
    const before = await readAll();
    expect(before).toHaveLength(RATES.length + 2);
    await api.app.get(TransactionRunner).query("DELETE FROM exchange_rates WHERE base = 'EUR'");
    await api.app.get(TransactionRunner).query('UPDATE exchange_rates SET rate = 2');
    expect(await readAll()).not.toEqual(before);
    expect(await rebuildAndRead(api, readAll, before)).toEqual(before);
    expect(await reader.ratesFor('USD', ['EUR', 'GBP'])).toHaveLength(6);
  });
});
