import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components, PricingClient } from '#app/client';
import type { ScrapeRecord } from '#app/contracts';
import { getISOWeek, getISOWeekYear } from 'date-fns';
import {
  CACHE_CONTROL,
  currentQuarter,
  getJson,
  ingestAndProject,
  rebuildAndRead,
  ISO_TIMESTAMP,
  type CodedErrorBody,
} from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

const environment = testEnvironment();
let api: TestApp;
let key: string;

let client: PricingClient;

type Schemas = components['schemas'];
type ScrapeFile = Schemas['ScrapeFile'];
/** What any files route answers: the files, and the period, format and version where it has them. */
type FilesBody = Schemas['FilesOfVersion'] &
  Partial<Omit<Schemas['FilesOfUnifiedPeriod'], keyof Schemas['FilesOfVersion']>>;

const PRIMARY_URL = 'https://orbit.io/pricing';
// Sorts before the primary page's URL, though its page sub-slug and scraper sort after.
const ENTERPRISE_URL = 'https://orbit.io/enterprise';

const scrape = (
  pageSlug: string,
  version: string,
  scraper: string,
  overrides: Partial<ScrapeRecord> = {},
): ScrapeRecord =>
  records.scrape('orbit.io', pageSlug, version, {
    scraper,
    page_url: pageSlug === '' ? PRIMARY_URL : ENTERPRISE_URL,
    ...overrides,
  });

const S = {
  oct16Second: scrape('', '20251016', 'scraper_2', {
    html_url: 'https://cdn.example.com/orbit.io/20251016/page.html',
    ocr_url: 'https://cdn.example.com/orbit.io/20251016/ocr.json',
    valid: false,
    score: 0,
    banner_free: false,
  }),
  oct16First: scrape('', '20251016', 'scraper_1'),
  oct16Enterprise: scrape('enterprise', '20251016', 'scraper_4'),
  oct13Nulls: scrape('', '20251013', 'scraper_3', {
    screenshot_url: null,
    markdown_url: null,
    html_url: null,
    ocr_url: null,
    valid: null,
    score: null,
    banner_free: null,
  }),
  oct20Enterprise: scrape('enterprise', '20251020', 'scraper_1'),
  nov20: scrape('', '20251120', 'scraper_1'),
  dec01: scrape('', '20251201', 'scraper_1'),
  dec31: scrape('', '20251231', 'scraper_2'),
  sep30: scrape('', '20250930', 'scraper_1'),
  dec27of2020: scrape('', '20201227', 'scraper_1'),
  jan02of2021: scrape('', '20210102', 'scraper_1'),
  jan04of2021: scrape('', '20210104', 'scraper_1'),
  thisQuarter: scrape('', currentQuarter().start, 'scraper_1'),
};

/** A file as the API must show it: every field of 2.3, null where the record had null. */
const file = (record: ScrapeRecord): ScrapeFile => ({
  slug: record.company_slug,
  version: record.version,
  page_url: record.page_url,
  screenshot_url: record.screenshot_url,
  markdown_url: record.markdown_url,
  html_url: record.html_url,
  ocr_url: record.ocr_url,
  scraper: record.scraper,
  valid: record.valid,
  score: record.score,
  banner_free: record.banner_free,
  created_at: expect.stringMatching(ISO_TIMESTAMP) as unknown as string,
  updated_at: expect.stringMatching(ISO_TIMESTAMP) as unknown as string,
});

/** Ordered by version, then page URL, then scraper. */
const OCT16 = [S.oct16Enterprise, S.oct16First, S.oct16Second].map(file);
const Q4_2025 = [
  file(S.oct13Nulls),
  ...OCT16,
  ...[S.oct20Enterprise, S.nov20, S.dec01, S.dec31].map(file),
];

beforeAll(async () => {
  api = await startTestApp(environment.config());
  key = await api.createKey(['read']);
  client = api.client(key);
  await ingestAndProject(api, [
    records.company('orbit.io', { name: 'Orbit' }),
    records.company('empty.io', { name: 'Empty' }),
    records.company('bare.io', { name: 'Bare' }),
    records.page('orbit.io', '', { pricing_page_url: PRIMARY_URL }),
    records.page('orbit.io', 'enterprise', { pricing_page_url: ENTERPRISE_URL }),
    records.page('empty.io'),
    ...Object.values(S),
  ]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

/**
 * A valid call of the files route `path` names (`<slug>/<route>/<value>`), typed by the
 * document, with the ETag to revalidate if given. A 304 has no body: openapi-fetch reads nothing
 * when it says Content-Length: 0, else hands its text as `error`.
 */
async function files(path: string, ifNoneMatch?: string) {
  const [slug = '', route, value = ''] = path.split('/');
  const header = ifNoneMatch === undefined ? undefined : { 'If-None-Match': ifNoneMatch };
  const answer = await callFiles(slug, route, value, header);
  const { response, error } = answer;
  const body: FilesBody = answer.data!;
  return { status: response.status, headers: response.headers, body, error };
}

function callFiles(
  slug: string,
  route: string | undefined,
  value: string,
  header: { 'If-None-Match': string } | undefined,
) {
  switch (route) {
    case 'version':
      return client.GET('/v1/api/files/{slug}/version/{version}', {
        params: { path: { slug, version: value }, header },
      });
    case 'quarter':
      return client.GET('/v1/api/files/{slug}/quarter/{quarter}', {
        params: { path: { slug, quarter: value }, header },
      });
    case 'month':
      return client.GET('/v1/api/files/{slug}/month/{month}', {
        params: { path: { slug, month: value }, header },
      });
    case 'week':
      return client.GET('/v1/api/files/{slug}/week/{week}', {
        params: { path: { slug, week: value }, header },
      });
    case 'period':
      return client.GET('/v1/api/files/{slug}/period/{period}', {
        params: { path: { slug, period: value }, header },
      });
    default:
      throw new Error(`no files route in ${slug}/${route}/${value}`);
  }
}

async function expectFiles(path: string, expected: FilesBody) {
  const { status, body } = await files(path);
  expect(status, path).toBe(200);
  expect(body, path).toEqual(expected);
}

describe('GET /api/files/{slug}/version/{version}', () => {
  it('gives the files of all pages of a company, by version, page URL, then scraper', async () => {
    await expectFiles('orbit.io/version/20251016', { files: OCT16, count: 3 });
  });

  it('takes the company slug without its extension', async () => {
    await expectFiles('orbit/version/20251016', { files: OCT16, count: 3 });
  });

  it('takes a composite slug: the files of that page only', async () => {
    await expectFiles('orbit.enterprise/version/20251016', {
      files: [file(S.oct16Enterprise)],
      count: 1,
    });
    await expectFiles('orbit/version/20251020', { files: [file(S.oct20Enterprise)], count: 1 });
  });

  it('shows every field of 2.3, null where the scrape has none', async () => {
    const { body } = await files('orbit.io/version/20251013');
    expect(body.files).toHaveLength(1);
    expect(Object.keys(body.files[0]!).sort()).toEqual([
      'banner_free',
      'created_at',
      'html_url',
      'markdown_url',
      'ocr_url',
      'page_url',
      'score',
      'scraper',
      'screenshot_url',
      'slug',
      'updated_at',
      'valid',
      'version',
    ]);
    expect(body.files[0]).toEqual(file(S.oct13Nulls));
    const second = (await files('orbit.io/version/20251016')).body.files[2]!;
    expect(second).toMatchObject({ valid: false, score: 0, banner_free: false });
  });
});

describe('per-format period endpoints', () => {
  it('gives every file of every version in a quarter, with the period', async () => {
    const expected = { files: Q4_2025, count: 8, period: { start: '20251001', end: '20251231' } };
    await expectFiles('orbit.io/quarter/2025Q4', expected);
    await expectFiles('orbit.io/quarter/2025q4', expected);
    await expectFiles('orbit.enterprise/quarter/2025Q4', {
      files: [file(S.oct16Enterprise), file(S.oct20Enterprise)],
      count: 2,
      period: { start: '20251001', end: '20251231' },
    });
    await expectFiles('orbit.io/quarter/2025Q3', {
      files: [file(S.sep30)],
      count: 1,
      period: { start: '20250701', end: '20250930' },
    });
  });

  it('gives every file of a month, as YYYYM##, YYYY## or with a lower-case m', async () => {
    const expected = {
      files: [file(S.dec01), file(S.dec31)],
      count: 2,
      period: { start: '20251201', end: '20251231' },
    };
    for (const month of ['2025M12', '202512', '2025m12']) {
      await expectFiles(`orbit.io/month/${month}`, expected);
    }
    await expectFiles('orbit.io/month/2025M11', {
      files: [file(S.nov20)],
      count: 1,
      period: { start: '20251101', end: '20251130' },
    });
  });

  it('gives every file of an ISO week, Monday to Sunday', async () => {
    const expected = {
      files: [file(S.oct13Nulls), ...OCT16],
      count: 4,
      period: { start: '20251013', end: '20251019' },
    };
    await expectFiles('orbit.io/week/2025W42', expected);
    await expectFiles('orbit.io/week/2025w42', expected);
    await expectFiles('orbit.io/week/2025W43', {
      files: [file(S.oct20Enterprise)],
      count: 1,
      period: { start: '20251020', end: '20251026' },
    });
  });

  it('knows week 53 of 2020, which spans the new year', async () => {
    await expectFiles('orbit.io/week/2020W53', {
      files: [file(S.jan02of2021)],
      count: 1,
      period: { start: '20201228', end: '20210103' },
    });
  });
});

describe('GET /api/files/{slug}/period/{period}', () => {
  it('gives a version with start = end = the version', async () => {
    await expectFiles('orbit.io/period/20251016', {
      files: OCT16,
      count: 3,
      period: { start: '20251016', end: '20251016' },
      format: 'version',
      version: '20251016',
    });
  });

  it('gives only the earliest version of a quarter, month or week, and names it', async () => {
    const q4 = { start: '20251001', end: '20251231' };
    await expectFiles('orbit.io/period/2025Q4', {
      files: [file(S.oct13Nulls)],
      count: 1,
      period: q4,
      format: 'quarter',
      version: '20251013',
    });
    await expectFiles('orbit.enterprise/period/2025q4', {
      files: [file(S.oct16Enterprise)],
      count: 1,
      period: q4,
      format: 'quarter',
      version: '20251016',
    });
    await expectFiles('orbit.io/period/2025W42', {
      files: [file(S.oct13Nulls)],
      count: 1,
      period: { start: '20251013', end: '20251019' },
      format: 'week',
      version: '20251013',
    });
    await expectFiles('orbit/period/2025W43', {
      files: [file(S.oct20Enterprise)],
      count: 1,
      period: { start: '20251020', end: '20251026' },
      format: 'week',
      version: '20251020',
    });
    for (const month of ['2025M12', '202512', '2025m12']) {
      await expectFiles(`orbit.io/period/${month}`, {
        files: [file(S.dec01)],
        count: 1,
        period: { start: '20251201', end: '20251231' },
        format: 'month',
        version: '20251201',
      });
    }
  });

  it('names no version when the period has no scrape', async () => {
    await expectFiles('orbit.io/period/2024Q1', {
      files: [],
      count: 0,
      period: { start: '20240101', end: '20240331' },
      format: 'quarter',
      version: null,
    });
  });
});

describe('a time without scrapes', () => {
  it.each([
    ['empty.io', 'a company whose page has no scrape'],
    ['bare.io', 'a company without pages'],
    ['orbit.io', 'a company with scrapes at other times'],
  ])('answers 200 with no files on every endpoint for %s (%s)', async (slug) => {
    for (const [path, period] of [
      [`${slug}/version/20240115`, undefined],
      [`${slug}/quarter/2024Q1`, { start: '20240101', end: '20240331' }],
      [`${slug}/month/2024M01`, { start: '20240101', end: '20240131' }],
      [`${slug}/week/2024W03`, { start: '20240115', end: '20240121' }],
      [`${slug}/period/2024Q1`, { start: '20240101', end: '20240331' }],
    ] as const) {
      const { status, body } = await files(path);
      expect(status, path).toBe(200);
      expect(body.files, path).toEqual([]);
      expect(body.count, path).toBe(0);
      if (period) expect(body.period, path).toEqual(period);
    }
    const unified = await files(`${slug}/period/20240115`);
    expect(unified.body).toMatchObject({
      files: [],
      count: 0,
      period: { start: '20240115', end: '20240115' },
      format: 'version',
    });
  });
});

describe('errors of the files endpoints', () => {
  async function expectCoded(path: string, status: number, code: string) {
    // Raw: mostly what the document forbids (a malformed version or period).
    const response = await getJson<CodedErrorBody>(api, `/api/files/${path}`, key);
    const body = response.body;
    expect(response.status, path).toBe(status);
    expect(Object.keys(body).sort(), path).toEqual(['code', 'details', 'error']);
    expect(body.error, path).toBeTypeOf('string');
    expect(body.code, path).toBe(code);
    return body;
  }

  it.each([
    ['version/20250231', 'INVALID_VERSION', '20250231'],
    ['version/2025013', 'INVALID_VERSION', '2025013'],
    ['version/2025-01-01', 'INVALID_VERSION', '2025-01-01'],
    ['version/2025Q4', 'INVALID_VERSION', '2025Q4'],
    ['quarter/2025Q5', 'INVALID_QUARTER', '2025Q5'],
    ['quarter/2025Q0', 'INVALID_QUARTER', '2025Q0'],
    ['quarter/2025M12', 'INVALID_QUARTER', '2025M12'],
    ['month/2025M13', 'INVALID_MONTH', '2025M13'],
    ['month/202500', 'INVALID_MONTH', '202500'],
    ['month/2025M00', 'INVALID_MONTH', '2025M00'],
    ['week/2021W53', 'INVALID_WEEK', '2021W53'],
    ['week/2025W00', 'INVALID_WEEK', '2025W00'],
    ['week/2025W54', 'INVALID_WEEK', '2025W54'],
    ['period/20250231', 'INVALID_VERSION', '20250231'],
    ['period/2025Q5', 'INVALID_QUARTER', '2025Q5'],
    ['period/202513', 'INVALID_MONTH', '202513'],
    ['period/2025M13', 'INVALID_MONTH', '2025M13'],
    ['period/2021W53', 'INVALID_WEEK', '2021W53'],
  ])('answers 400 to %s with %s and details.provided', async (tail, code, provided) => {
    const body = await expectCoded(`orbit.io/${tail}`, 400, code);
    expect(body.details?.provided).toBe(provided);
  });

  it.each(['2025X1', 'latest', '2025-Q4', '2025', '2025Q', '20251016T00'])(
    'answers 400 INVALID_PERIOD_FORMAT to period %s, with one example of each format',
    async (provided) => {
      const body = await expectCoded(`orbit.io/period/${provided}`, 400, 'INVALID_PERIOD_FORMAT');
      expect(body.details?.provided).toBe(provided);
      const examples = body.details?.examples as Record<string, string>;
      expect(Object.keys(examples).sort()).toEqual(['month', 'quarter', 'version', 'week']);
      for (const [format, example] of Object.entries(examples)) {
        const { status, body: answer } = await files(`orbit.io/period/${example}`);
        expect(status, example).toBe(200);
        expect(answer.format, example).toBe(format);
      }
    },
  );

  it('accepts week 53 of 2020', async () => {
    expect((await files('orbit.io/week/2020W53')).status).toBe(200);
    expect((await files('orbit.io/period/2020w53')).body.format).toBe('week');
  });

  it.each(['version/20251016', 'quarter/2025Q4', 'month/2025M12', 'week/2025W42', 'period/2025Q4'])(
    'answers 404 NOT_FOUND with the slug and a message for an unknown slug (%s)',
    async (tail) => {
      const body = await expectCoded(`nowhere.io/${tail}`, 404, 'NOT_FOUND');
      expect(body.details?.slug).toBe('nowhere.io');
      expect(body.details?.message).toBeTypeOf('string');
      await expectCoded(`orbit.nothing/${tail}`, 404, 'NOT_FOUND');
    },
  );

  it.each([
    ['missing', {}],
    ['malformed', { authorization: 'Bearer nope' }],
    ['unknown', { 'x-api-key': `pi_${'C'.repeat(43)}` }],
  ] as [string, Record<string, string>][])(
    'answers 401 AUTH_INVALID in the coded shape for a %s key',
    async (_name, headers) => {
      const response = await getJson<CodedErrorBody>(
        api,
        '/api/files/orbit.io/version/20251016',
        null,
        headers,
      );
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('AUTH_INVALID');
      expect(response.body.error).toBeTypeOf('string');
      expect(response.body).not.toHaveProperty('message');
    },
  );

  it('accepts the key as X-API-Key too', async () => {
    const response = await getJson<FilesBody>(api, '/api/files/orbit.io/version/20251016', null, {
      'x-api-key': key,
    });
    expect(response.status).toBe(200);
    expect(response.body.count).toBe(3);
  });

  it('answers 403 in the coded shape to a key without the read scope', async () => {
    const ingestOnly = api.client(await api.createKey(['ingest']));
    const { error, response } = await ingestOnly.GET('/v1/api/files/{slug}/version/{version}', {
      params: { path: { slug: 'orbit.io', version: '20251016' } },
    });
    expect(response.status).toBe(403);
    expect(error!.code).toBeTypeOf('string');
    expect(error).not.toHaveProperty('message');
  });
});

describe('caching of answers addressed by a time past', () => {
  async function expectCacheable(path: string) {
    const first = await files(path);
    expect(first.status, path).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag, path).toMatch(/^(W\/)?".+"$/);
    expect(first.headers.get('cache-control'), path).toMatch(CACHE_CONTROL);
    const again = await files(path, etag!);
    expect(again.status, path).toBe(304);
    expect(again.error ?? '', path).toBe('');
    expect(again.headers.get('etag'), path).toBe(etag);
    const stale = await files(path, '"something-else"');
    expect(stale.status, path).toBe(200);
    expect(stale.body, path).toEqual(first.body);
    return etag!;
  }

  it('gives a version-addressed answer an ETag and Cache-Control, and 304 on a match', async () => {
    const oct16 = await expectCacheable('orbit.io/version/20251016');
    const oct13 = await expectCacheable('orbit.io/version/20251013');
    expect(oct16).not.toBe(oct13);
    await expectCacheable('orbit.io/period/20251016');
  });

  it('gives a closed period an ETag and Cache-Control, and 304 on a match', async () => {
    for (const path of [
      'orbit.io/quarter/2025Q4',
      'orbit.io/month/2025M12',
      'orbit.io/week/2025W42',
      'orbit.io/period/2025Q4',
      'orbit.io/period/202512',
      'orbit.io/period/2025W42',
    ]) {
      await expectCacheable(path);
    }
  });

  it('makes a version with no file yet revalidated at every use, so its first scrape shows at once', async () => {
    const path = 'orbit.io/version/20230615';
    const before = await files(path);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ files: [], count: 0 });
    const etag = before.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect(before.headers.get('cache-control')).toBe('private, max-age=0');
    expect((await files(path, etag)).status).toBe(304);
    // The fixture waits until the API answers the new file, which moves the read model the
    // kept empty answer came from.
    const arrived = scrape('', '20230615', 'scraper_1');
    await ingestAndProject(api, [arrived]);
    const after = await files(path, etag);
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ files: [file(arrived)], count: 1 });
    await expectCacheable(path);
  });

  it('revalidates an ended period with no file at every use', async () => {
    for (const path of [
      'orbit.io/quarter/2019Q1',
      'orbit.io/period/2019W02',
      'orbit.io/period/20190105',
    ]) {
      const response = await files(path);
      expect(response.status, path).toBe(200);
      expect(response.body.files, path).toEqual([]);
      expect(response.headers.get('cache-control'), path).toBe('private, max-age=0');
      const etag = response.headers.get('etag')!;
      expect((await files(path, etag)).status, path).toBe(304);
    }
  });

  it('gives no ETag for a period that includes today', async () => {
    const now = new Date();
    const month = `${now.getUTCFullYear()}M${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const noon = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12));
    const week = `${getISOWeekYear(noon)}W${String(getISOWeek(noon)).padStart(2, '0')}`;
    const quarter = currentQuarter(now).name;
    const withData = await files(`orbit.io/quarter/${quarter}`);
    expect(withData.status).toBe(200);
    expect(withData.body.files).toEqual([file(S.thisQuarter)]);
    for (const path of [
      `orbit.io/quarter/${quarter}`,
      `orbit.io/period/${quarter}`,
      `orbit.io/month/${month}`,
      `orbit.io/period/${month}`,
      `orbit.io/week/${week}`,
      `orbit.io/period/${week}`,
    ]) {
      const response = await files(path, '*');
      expect(response.status, path).toBe(200);
      expect(response.headers.get('etag'), path).toBeNull();
      expect(response.headers.get('cache-control') ?? '', path).not.toMatch(CACHE_CONTROL);
    }
  });
});

describe('a rebuild of the read models', () => {
  it('leaves every answer, and so every ETag, as it was', async () => {
    const paths = [
      'orbit.io/quarter/2025Q4',
      'orbit.enterprise/period/2025Q4',
      'orbit/week/2020W53',
    ];
    const read = () =>
      Promise.all(
        paths.map(async (path) => {
          const response = await files(path);
          return { body: response.body, etag: response.headers.get('etag') };
        }),
      );
    const before = await read();
    expect(await rebuildAndRead(api, read, before)).toEqual(before);
  });
});
