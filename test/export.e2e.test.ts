import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PricingRecord } from '#app/contracts';
import { compositePageSlug } from '#app/domain';
import { getJson, ingestAndProject, type CodedErrorBody } from './support/catalogue-fixture.js';
import { runCli, said } from './support/cli-process.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/** GET /api/export/pricing: every extraction after a change-feed cursor, as NDJSON or CSV. */

const environment = testEnvironment();
let api: TestApp;
let key: string;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function exportCall(
  query = '',
  apiKey = key,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await api.request(`/api/export/pricing${query ? `?${query}` : ''}`, {
    headers: { authorization: `Bearer ${apiKey}`, ...headers },
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const cursorOf = (answer: Answer) => answer.headers.get('x-next-cursor')!;

const HEADER =
  'slug,company_slug,page_subslug,version,plan_internal_name,plan_display_name,add_on,' +
  'charge_display_name,billing,charge_type,usage_type,currency,price,monthly_equivalent,' +
  'modality\r\n';

/** Names that CSV must quote: a comma, quotes, line breaks. */
const BETA: PricingRecord = records.pricing('beta.io', 'team', '20250105', 0, {
  plans: [
    {
      display_name: 'Team, "Plus"\nEdition',
      internal_name: 'team_plus',
      add_on: false,
      charges: [
        {
          billing: 'annual_recurring_billed_yearly',
          currency: 'EUR',
          price: 120,
          charge_type: 'recurring',
          pricing_metric: { display_name: 'per seat', modality: 'user_based' },
          usage_type: 'licensed',
          display_name: 'Seat, "yearly"',
        },
        {
          billing: 'one_time',
          currency: 'EUR',
          price: null,
          charge_type: 'flat',
          pricing_metric: null,
          display_name: 'Setup\r\nfee',
        },
      ],
      discounts: [],
    },
    {
      display_name: 'Free',
      internal_name: 'free',
      add_on: true,
      charges: [
        {
          billing: 'freemium',
          currency: 'USD',
          price: null,
          charge_type: 'flat',
          pricing_metric: null,
          display_name: 'Free tier',
        },
      ],
      discounts: [],
    },
  ],
});

/** The extractions in the order they are recorded (a backfill last), with their CSV lines. */
const EXTRACTIONS: [PricingRecord, string][] = [
  [
    records.pricing('alpha.io', '', '20250105', 10),
    'alpha,alpha.io,,20250105,pro,Pro,false,Pro monthly,monthly_recurring_billed_monthly,' +
      'metered,licensed,USD,10,10,user_based\r\n',
  ],
  [
    BETA,
    'beta.team,beta.io,team,20250105,team_plus,"Team, ""Plus""\nEdition",false,' +
      '"Seat, ""yearly""",annual_recurring_billed_yearly,recurring,licensed,EUR,120,10,' +
      'user_based\r\n' +
      'beta.team,beta.io,team,20250105,team_plus,"Team, ""Plus""\nEdition",false,' +
      '"Setup\r\nfee",one_time,flat,,EUR,,,\r\n' +
      'beta.team,beta.io,team,20250105,free,Free,true,Free tier,freemium,flat,,USD,,0,\r\n',
  ],
  [
    records.pricing('alpha.io', '', '20250201', 12.5),
    'alpha,alpha.io,,20250201,pro,Pro,false,Pro monthly,monthly_recurring_billed_monthly,' +
      'metered,licensed,USD,12.5,12.5,user_based\r\n',
  ],
  [
    records.pricing('alpha.io', '', '20241201', 5),
    'alpha,alpha.io,,20241201,pro,Pro,false,Pro monthly,monthly_recurring_billed_monthly,' +
      'metered,licensed,USD,5,5,user_based\r\n',
  ],
];

/** Each charge's monthly equivalent, by extraction, plan and charge. */
const MONTHLY: (number | null)[][][] = [[[10]], [[10, null], [0]], [[12.5]], [[5]]];

/** One extraction at a time (its scrape first), so the log's order is the list's. */
async function extract(record: PricingRecord): Promise<void> {
  await ingestAndProject(api, [
    records.scrape(record.company_slug, record.page_slug, record.version),
    record,
  ]);
}

/**
 * The NDJSON line of an extraction: the pricing route's document of that version with each
 * charge's monthly equivalent, which the pricing route gives too.
 */
async function ndjsonLine(record: PricingRecord, monthly: (number | null)[][]): Promise<string> {
  const slug = compositePageSlug(record.company_slug, record.page_slug);
  const { data: body, response } = await api.client(key).GET('/v1/api/pricing/{slug}', {
    params: { path: { slug }, query: { version: record.version } },
  });
  expect(response.status).toBe(200);
  body!.plans.forEach((plan, p) =>
    plan.charges.forEach((charge, c) => {
      charge.monthly_equivalent = monthly[p]![c];
    }),
  );
  return `${JSON.stringify(body)}\n`;
}

let ndjson: string;
const csv = HEADER + EXTRACTIONS.map(([, lines]) => lines).join('');

beforeAll(async () => {
  api = await startTestApp(environment.config());
  key = await api.createKey(['read'], 'enterprise');
  await ingestAndProject(api, [
    records.company('alpha.io'),
    records.company('beta.io'),
    records.page('alpha.io'),
    records.page('beta.io', 'team'),
    // From 20250101 on: the backfill of 20241201 has no rate.
    records.exchangeRate('20250101', { base: 'EUR', quote: 'USD', rate: 1.25 }),
  ]);
  for (const [record] of EXTRACTIONS) await extract(record);
  const lines: string[] = [];
  for (const [i, [record]] of EXTRACTIONS.entries())
    lines.push(await ndjsonLine(record, MONTHLY[i]!));
  ndjson = lines.join('');
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

/** Reads on from `since` by X-Next-Cursor, `limit` at a time, until an empty answer. */
async function follow(
  query: string,
  since?: string,
): Promise<{ bodies: string[]; cursor: string }> {
  const bodies: string[] = [];
  let cursor = since;
  for (;;) {
    const answer = await exportCall(
      [query, cursor ? `since=${cursor}` : ''].filter(Boolean).join('&'),
    );
    expect(answer.status, answer.text).toBe(200);
    const empty = answer.text === '' || answer.text === HEADER;
    if (empty) {
      expect(cursorOf(answer)).toBe(cursor);
      return { bodies, cursor: cursorOf(answer) };
    }
    bodies.push(answer.text);
    cursor = cursorOf(answer);
  }
}

describe('GET /api/export/pricing', () => {
  it('gives NDJSON by default: each extraction as the pricing route gives it, in recording order', async () => {
    const answer = await exportCall();
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/x-ndjson');
    expect(answer.text).toBe(ndjson);
    expect(cursorOf(answer)).toMatch(/^[A-Za-z0-9_-]+$/);
    expect((await exportCall('format=ndjson')).text).toBe(ndjson);
  });

  it('gives CSV: a header, then one line per charge, quoting what RFC 4180 says to quote', async () => {
    const answer = await exportCall('format=csv');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.text).toBe(csv);
    // Without format, an Accept header that names CSV asks for it.
    const accepted = await exportCall('', key, { accept: 'text/csv, application/x-ndjson' });
    expect(accepted.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(accepted.text).toBe(csv);
    expect((await exportCall('format=ndjson', key, { accept: 'text/csv' })).text).toBe(ndjson);
  });

  it('pages by X-Next-Cursor: calls of one extraction each make the one-call export', async () => {
    const whole = await exportCall();
    const ndjsonPages = await follow('limit=1');
    expect(ndjsonPages.bodies).toHaveLength(EXTRACTIONS.length);
    expect(ndjsonPages.bodies.join('')).toBe(ndjson);
    expect(ndjsonPages.cursor).toBe(cursorOf(whole));

    const csvPages = await follow('format=csv&limit=3');
    expect(csvPages.bodies).toHaveLength(2);
    for (const body of csvPages.bodies) expect(body.startsWith(HEADER)).toBe(true);
    expect(HEADER + csvPages.bodies.map((body) => body.slice(HEADER.length)).join('')).toBe(csv);
    expect(csvPages.cursor).toBe(cursorOf(whole));

    // Past the end: nothing (CSV: the header alone), and the cursor again.
    const end = await exportCall(`since=${cursorOf(whole)}`);
    expect(end).toMatchObject({ status: 200, text: '' });
    expect(cursorOf(end)).toBe(cursorOf(whole));
    const csvEnd = await exportCall(`format=csv&since=${cursorOf(whole)}`);
    expect(csvEnd).toMatchObject({ status: 200, text: HEADER });
    expect(cursorOf(csvEnd)).toBe(cursorOf(whole));
  });

  it("converts with currency, any case: each line the pricing route's answer in it", async () => {
    const answer = await exportCall('currency=eur');
    expect(answer.status, answer.text).toBe(200);
    const lines: string[] = [];
    for (const [record] of EXTRACTIONS) {
      const slug = compositePageSlug(record.company_slug, record.page_slug);
      const route = await getJson(
        api,
        `/api/pricing/${slug}?version=${record.version}&currency=EUR`,
        key,
      );
      lines.push(`${route.text}\n`);
    }
    expect(answer.text).toBe(lines.join(''));
    expect(JSON.parse(lines[3]!)).toMatchObject({ currency: 'EUR', unconverted: 1 });

    const csvAnswer = await exportCall('format=csv&currency=EUR');
    expect(csvAnswer.text).toBe(
      HEADER.replace(
        '\r\n',
        ',converted_currency,converted_monthly_equivalent,rate,rate_date\r\n',
      ) +
        'alpha,alpha.io,,20250105,pro,Pro,false,Pro monthly,monthly_recurring_billed_monthly,' +
        'metered,licensed,USD,10,10,user_based,EUR,8,0.8,20250101\r\n' +
        'beta.team,beta.io,team,20250105,team_plus,"Team, ""Plus""\nEdition",false,' +
        '"Seat, ""yearly""",annual_recurring_billed_yearly,recurring,licensed,EUR,120,10,' +
        'user_based,EUR,10,1,\r\n' +
        'beta.team,beta.io,team,20250105,team_plus,"Team, ""Plus""\nEdition",false,' +
        '"Setup\r\nfee",one_time,flat,,EUR,,,,,,,\r\n' +
        'beta.team,beta.io,team,20250105,free,Free,true,Free tier,freemium,flat,,USD,,0,,' +
        'EUR,0,0.8,20250101\r\n' +
        'alpha,alpha.io,,20250201,pro,Pro,false,Pro monthly,monthly_recurring_billed_monthly,' +
        'metered,licensed,USD,12.5,12.5,user_based,EUR,10,0.8,20250101\r\n' +
        'alpha,alpha.io,,20241201,pro,Pro,false,Pro monthly,monthly_recurring_billed_monthly,' +
        'metered,licensed,USD,5,5,user_based,,,,\r\n',
    );
  });

  it("shares the change feed's cursor, both ways", async () => {
    const whole = await exportCall();
    // The feed from the export's cursor: nothing yet, then only what comes after it.
    const feed = async (since: string) =>
      (await api.client(key).GET('/v1/api/changes', { params: { query: { since } } })).data!;
    expect((await feed(cursorOf(whole))).changes).toEqual([]);
    const later = records.pricing('alpha.io', '', '20250301', 15);
    await extract(later);
    const after = await exportCall(`since=${cursorOf(whole)}`);
    expect(after.text).toBe(await ndjsonLine(later, [[15]]));
    expect((await feed(cursorOf(whole))).changes.map((change) => change.to_version)).toEqual([
      '20250301',
      '20250301',
    ]);
    // The export from the feed's cursor: the extractions after the one it stands in.
    const first = await api.client(key).GET('/v1/api/changes', { params: { query: { limit: 1 } } });
    const rest = await exportCall(`format=csv&since=${first.data!.next_cursor}`);
    expect(rest.text).toBe(
      HEADER +
        EXTRACTIONS.slice(1)
          .map(([, lines]) => lines)
          .join('') +
        EXTRACTIONS[0]![1].replace('20250105', '20250301').replace(/,10,10,/, ',15,15,'),
    );
  });

  it("writes text a spreadsheet would run with a leading ' in CSV, and as captured in NDJSON", async () => {
    const since = cursorOf(await exportCall());
    const planName = '=HYPERLINK("https://evil.example","Pro")';
    const chargeNames = ['+1+2', '-2+3', '@SUM(A1:A2)'];
    const captured = records.pricing('formula.io', '', '20250301');
    const plan = captured.plans[0]!;
    const record: PricingRecord = {
      ...captured,
      plans: [
        {
          ...plan,
          display_name: planName,
          charges: chargeNames.map((name) => ({ ...plan.charges[0]!, display_name: name })),
        },
      ],
    };
    await ingestAndProject(api, [records.company('formula.io'), records.page('formula.io')]);
    await extract(record);

    const csvAnswer = await exportCall(`format=csv&since=${since}`);
    expect(csvAnswer.status, csvAnswer.text).toBe(200);
    const planCell = `"'=HYPERLINK(""https://evil.example"",""Pro"")"`;
    expect(csvAnswer.text).toBe(
      HEADER +
        ["'+1+2", "'-2+3", "'@SUM(A1:A2)"]
          .map(
            (chargeCell) =>
              `formula,formula.io,,20250301,pro,${planCell},false,${chargeCell},` +
              'monthly_recurring_billed_monthly,metered,licensed,USD,10,10,user_based\r\n',
          )
          .join(''),
    );

    const ndjsonAnswer = await exportCall(`since=${since}`);
    expect(ndjsonAnswer.text).toBe(await ndjsonLine(record, [[10, 10, 10]]));
    const [exported] = (JSON.parse(ndjsonAnswer.text) as PricingRecord).plans;
    expect(exported!.display_name).toBe(planName);
    expect(exported!.charges.map((charge) => charge.display_name)).toEqual(chargeNames);
  });

  it('needs the export feature: 403 PLAN_REQUIRED for pro and free keys', async () => {
    for (const plan of ['pro', 'free']) {
      const answer = await exportCall('', await api.createKey(['read'], plan));
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.text)).toMatchObject({
        error: 'Your plan does not include export',
        code: 'PLAN_REQUIRED',
        details: { required_plan: 'enterprise', current_plan: plan },
      });
    }
  });

  it('answers 400 in the coded shape for a bad cursor, limit, format or currency', async () => {
    const { headers } = await exportCall();
    const cursor = headers.get('x-next-cursor')!;
    for (const [query, code, parameter] of [
      ['since=not-a-cursor', 'INVALID_CURSOR', 'since'],
      ['since=abc%3D', 'INVALID_CURSOR', 'since'],
      [`since=${Buffer.from('1.2').toString('base64url')}`, 'INVALID_CURSOR', 'since'],
      [`since=${cursor}x`, 'INVALID_CURSOR', 'since'],
      ['limit=0', 'INVALID_PARAMETER', 'limit'],
      ['limit=10001', 'INVALID_PARAMETER', 'limit'],
      ['limit=ten', 'INVALID_PARAMETER', 'limit'],
      ['format=xml', 'INVALID_PARAMETER', 'format'],
      ['format=CSV', 'INVALID_PARAMETER', 'format'],
      ['format=csv&format=ndjson', 'INVALID_PARAMETER', 'format'],
      ['currency=EURO', 'INVALID_CURRENCY', 'currency'],
      ['currency=E1R', 'INVALID_CURRENCY', 'currency'],
    ]) {
      const answer = await exportCall(query);
      expect(answer.status, query).toBe(400);
      const body = JSON.parse(answer.text) as CodedErrorBody;
      expect(body, query).toMatchObject({ code, details: { parameter } });
      expect(body.error, query).toEqual(expect.any(String));
      expect(body.details, query).toHaveProperty('provided');
    }
  });

  it('charges one credit per call whatever its size, none for a 400', async () => {
    const own = await api.createKey(['read'], 'enterprise');
    const used = async () => (await api.client(own).GET('/v1/api/usage')).data!.credits.used;
    expect(await used()).toBe(0);
    expect((await exportCall('', own)).status).toBe(200);
    expect(await used()).toBe(1);
    expect((await exportCall('format=csv&limit=1', own)).status).toBe(200);
    expect((await exportCall('limit=0', own)).status).toBe(400);
    expect(await used()).toBe(2);
  });
});

describe('npm run cli -- export', () => {
  let directory: string;
  const file = (name: string) => join(directory, name);
  const cli = (args: string[]) => runCli(environment.env, ['export', ...args]);

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'export-cli-'));
  });
  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('writes what the route gives, with no limit, and prints the cursor to read on from', async () => {
    const route = await exportCall();
    const result = await cli(['--output', file('all.ndjson')]);
    expect(result.code, said(result)).toBe(0);
    expect(readFileSync(file('all.ndjson'), 'utf8')).toBe(route.text);
    const extractions = route.text.split('\n').length - 1;
    expect(result.stdout).toContain(`${file('all.ndjson')}: ${extractions} extractions (ndjson)`);
    expect(result.stdout).toContain(`exported: ${extractions}/${extractions} extractions`);
    expect(result.stdout).toContain(`next cursor: ${cursorOf(route)}`);
  });

  it('reads on from a cursor, in CSV; past the end, the header alone and the same cursor', async () => {
    const first = await exportCall('limit=1');
    const rest = await exportCall(`format=csv&since=${cursorOf(first)}`);
    const result = await cli([
      '--format',
      'csv',
      '--since',
      cursorOf(first),
      '--output',
      file('rest.csv'),
    ]);
    expect(result.code, said(result)).toBe(0);
    expect(readFileSync(file('rest.csv'), 'utf8')).toBe(rest.text);
    expect(result.stdout).toContain(`next cursor: ${cursorOf(rest)}`);

    const end = await cli([
      '--format',
      'csv',
      '--since',
      cursorOf(rest),
      '--output',
      file('end.csv'),
    ]);
    expect(end.code, said(end)).toBe(0);
    expect(readFileSync(file('end.csv'), 'utf8')).toBe(HEADER);
    expect(end.stdout).toContain(`${file('end.csv')}: 0 extractions (csv)`);
    expect(end.stdout).toContain(`next cursor: ${cursorOf(rest)}`);
  });

  it('converts with --currency, any case, as the route does', async () => {
    const route = await exportCall('format=csv&currency=EUR');
    const result = await cli(['--format', 'csv', '--currency', 'eur', '--output', file('eur.csv')]);
    expect(result.code, said(result)).toBe(0);
    expect(readFileSync(file('eur.csv'), 'utf8')).toBe(route.text);
  });

  it('refuses a cursor it did not hand out, an unknown format or currency, writing nothing', async () => {
    const cursor = await cli(['--since', 'not-a-cursor', '--output', file('bad.ndjson')]);
    expect(cursor.code, said(cursor)).toBe(1);
    expect(cursor.stderr).toContain('--since not-a-cursor is not a cursor of the change feed');
    const format = await cli(['--format', 'xml', '--output', file('bad.xml')]);
    expect(format.code, said(format)).not.toBe(0);
    expect(format.stderr).toContain('xml');
    const currency = await cli(['--currency', 'EURO', '--output', file('bad.euro')]);
    expect(currency.code, said(currency)).not.toBe(0);
    expect(currency.stderr).toContain('three-letter');
    for (const name of ['bad.ndjson', 'bad.xml', 'bad.euro']) {
      expect(existsSync(file(name))).toBe(false);
    }
  });
});
