import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeysService } from '#app/access';
import { CATEGORIES } from '#app/domain';
import { ingestAndProject } from './support/catalogue-fixture.js';
import { freePort } from './support/free-port.js';
import { FuzzFigures } from './support/fuzz-figures.js';
import {
  authenticates,
  documentedOperations,
  fuzzRequest,
  type Credential,
  type FuzzContext,
  type FuzzRequest,
  type Need,
  type OpenApiDocument,
} from './support/fuzz-requests.js';
import { SchemaValues, type Hints } from './support/fuzz-values.js';
import { openApiValidator } from './support/openapi-validator.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * The standing fuzz test: requests generated from the served OpenAPI document, over every
 * operation, with path and query parameters, headers (credentials of every kind, client
 * addresses, content types, If-None-Match) and bodies (ingest records, key and webhook
 * registrations) that are valid-looking most of the time and hostile the rest. Whatever
 * arrives, no answer is a 5xx, and every answer is a status the operation documents, with its
 * documented headers and body (test-app's request() checks each one against the document).
 *
 * The seed is fixed, so CI sends the same requests on every run; `npm run fuzz` sends many
 * more. FUZZ_SEED and FUZZ_RUNS change them. Limits stay at their defaults: the requests are
 * spread over several keys (each has its own burst bucket and hourly window) and client
 * addresses (failed authentications are bounded per address), and the figures printed at the
 * end show how many reached the routes themselves.
 */

const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 1608);
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
/** Keys that may call every key route; requests are spread over them. */
const FULL_KEYS = 8;
/** How long a request may wait for its answer on a busy two-core machine. */
const ANSWER_WITHIN_MS = 10_000;
/** A long run says how far it has come every so many requests. */
const PROGRESS_EVERY = 5_000;
/** Webhooks each of them holds at the start (a key may hold 20). */
const WEBHOOKS_PER_KEY = 3;

const environment = testEnvironment({
  // The app sits behind a proxy on the loopback address, which X-Forwarded-For names the client to.
  TRUST_PROXY: '127.0.0.1',
  // Registered webhooks point at a closed local port: nothing generated is ever sent elsewhere.
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_ATTEMPTS: '1',
  // Generated records that fail in the worker are expected: its warnings would drown the figures.
  LOG_LEVEL: 'error',
});
const figures = new FuzzFigures();
let app: TestApp;
let document: OpenApiDocument;
let context: FuzzContext;

beforeAll(async () => {
  if (!Number.isSafeInteger(FUZZ_SEED) || !Number.isSafeInteger(FUZZ_RUNS) || FUZZ_RUNS < 1) {
    throw new Error('FUZZ_SEED and FUZZ_RUNS must be integers (FUZZ_RUNS at least 1)');
  }
  app = await startTestApp(environment.config());
  document = (await (await app.request('/api/openapi.json')).json()) as OpenApiDocument;
  await ingestAndProject(app, [
    records.company('acme.io', { name: 'Acme' }),
    records.company('multi.io', { name: 'Multi' }),
    records.company('nopages.io', { name: 'Nopages' }),
    records.page('acme.io'),
    records.page('acme.io', 'enterprise'),
    records.page('multi.io', 'team'),
    records.page('multi.io', 'business'),
    records.scrape('acme.io', '', '20250105'),
    records.scrape('acme.io', '', '20250105', { scraper: 'scraper_2' }),
    records.scrape('acme.io', '', '20250212'),
    records.scrape('acme.io', 'enterprise', '20250212'),
    records.pricing('acme.io', '', '20250105', 10),
    records.pricing('acme.io', '', '20250212', 12),
    records.pricing('acme.io', 'enterprise', '20250212', 90),
  ]);
  context = await fuzzContext(app, document);
}, 120_000);

afterAll(async () => {
  if (figures.total > 0) {
    console.log(figures.report(`Fuzz run (seed ${FUZZ_SEED}, ${environment.dialect})`));
  }
  await app?.close();
  await environment.cleanup();
});

describe('the standing fuzz test', () => {
  it('fuzzes every operation of the served document', () => {
    expect(documentedOperations(document).map((operation) => operation.name)).toEqual(
      expect.arrayContaining([
        'POST /v1/ingest/records',
        'GET /v1/ingest/batches/{batchId}',
        'GET /v1/api/companies',
        'GET /v1/api/pricing/{slug}/diff',
        'POST /v1/api/webhooks',
        'POST /v1/admin/keys',
        'DELETE /v1/admin/keys/{id}',
      ]),
    );
  });

  it(
    `answers ${FUZZ_RUNS} runs of generated requests without a 5xx, each as its operation documents`,
    async () => {
      const validator = await openApiValidator(app.baseUrl);
      const operations = documentedOperations(document);
      const needs = new Map<string, Need>(
        operations.map((operation) => [operation.name, operation.need]),
      );
      const request = fc.oneof(...operations.map((operation) => fuzzRequest(operation, context)));
      // Mostly one request a run; at times a few at once, or the same one twice (races).
      const runs = fc.oneof(
        { weight: 4, arbitrary: request.map((one) => [one]) },
        { weight: 1, arbitrary: fc.array(request, { minLength: 2, maxLength: 4 }) },
        { weight: 1, arbitrary: request.map((one) => [one, one]) },
      );
      const send = async (generated: FuzzRequest) => {
        // The generator must hit the operation it targets, or nothing would be checked.
        const { pathname } = new URL(`${app.baseUrl}${generated.path}`);
        const route = validator.route(generated.method, pathname);
        expect(`${route?.method} ${route?.template}`).toBe(generated.operation);
        const response = await app.request(generated.path, {
          method: generated.method,
          headers: generated.headers,
          body: generated.body,
          // Every request gets an answer: one that hangs fails here, with its counterexample.
          signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
        });
        await response.arrayBuffer();
        figures.record(generated.operation, response.status);
        if (figures.total % PROGRESS_EVERY === 0) {
          console.log(`${figures.total} requests: ${figures.statusLine()}`);
        }
        expect(response.status, `${generated.operation} answered ${response.status}`).toBeLessThan(
          500,
        );
        if (!authenticates(generated.credential, needs.get(generated.operation)!)) {
          // Without a credential for this operation, no success: whatever else it carried.
          expect(response.status).toBeGreaterThanOrEqual(400);
        }
      };
      await fc.assert(
        fc.asyncProperty(runs, async (sentTogether) => {
          await Promise.all(sentTogether.map(send));
        }),
        { seed: FUZZ_SEED, numRuns: FUZZ_RUNS },
      );
      // Most requests must reach the routes' own code, or the run proves little.
      expect(figures.reachedTheRoute / figures.total).toBeGreaterThan(0.5);
      // And every operation succeeded at least once: the generators know how to call each.
      expect(
        figures.operationsWithoutSuccess(operations.map((operation) => operation.name)),
      ).toEqual([]);
    },
    60_000 + FUZZ_RUNS * 100,
  );
});

/** The fixture's keys, credentials and values, which the generators draw on. */
async function fuzzContext(testApp: TestApp, served: OpenApiDocument): Promise<FuzzContext> {
  const keys = testApp.app.get(ApiKeysService);
  const create = async (plan: string, scopes: ('read' | 'ingest')[], expiresAt?: string) =>
    (await keys.create({ name: `fuzz-${plan}-${scopes.join('-')}`, plan, scopes, expiresAt })).key;
  const full = await Promise.all(
    Array.from({ length: FULL_KEYS }, () => create('enterprise', ['read', 'ingest'])),
  );
  const [firstKey] = full as [string];
  const readOnly = await create('enterprise', ['read']);
  const ingestOnly = await create('enterprise', ['ingest']);
  const free = await create('free', ['read']);
  const pro = await create('pro', ['read']);
  const revoked = await keys.create({ name: 'revoked', plan: 'enterprise', scopes: ['read'] });
  await keys.revoke(revoked.id);
  const expiresAt = Date.now() + 1_000;
  const expiring = await create('enterprise', ['read'], new Date(expiresAt).toISOString());
  const admin = environment.env.ADMIN_TOKEN as string;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const grants = (...needs: Need[]) => new Set<Need>(needs);
  const request = async (path: string, init: RequestInit = {}) => {
    const response = await testApp.request(path, {
      ...init,
      headers: { ...bearer(firstKey), 'content-type': 'application/json', ...init.headers },
    });
    if (response.status >= 300) throw new Error(`${path} answered ${response.status}`);
    return response;
  };
  // Webhooks are their key's own: a few for each key, which it may delete (other keys get 404).
  const hookUrl = `http://127.0.0.1:${await freePort()}/hooks`;
  const webhookIds = await Promise.all(
    full.map((key) =>
      Promise.all(
        Array.from({ length: WEBHOOKS_PER_KEY }, async () => {
          const response = await request('/api/webhooks', {
            method: 'POST',
            headers: bearer(key),
            body: JSON.stringify({ url: hookUrl }),
          });
          return ((await response.json()) as { id: string }).id;
        }),
      ),
    ),
  );
  const credentials: Credential[] = [
    ...full.map((key, index) => ({
      label: `key ${index + 1}`,
      headers: bearer(key),
      grants: grants('read', 'ingest'),
      owns: { id: webhookIds[index]! },
    })),
    {
      label: 'key as X-API-Key',
      headers: { 'x-api-key': firstKey },
      grants: grants('read', 'ingest'),
    },
    {
      label: 'key, scheme lower-cased',
      headers: { authorization: `bearer ${firstKey}` },
      grants: grants('read', 'ingest'),
    },
    { label: 'read-only key', headers: bearer(readOnly), grants: grants('read') },
    { label: 'ingest-only key', headers: bearer(ingestOnly), grants: grants('ingest') },
    { label: 'free plan key', headers: bearer(free), grants: grants('read') },
    { label: 'pro plan key', headers: bearer(pro), grants: grants('read') },
    { label: 'admin token', headers: bearer(admin), grants: grants('admin') },
    { label: 'none', headers: {}, grants: grants() },
    { label: 'revoked key', headers: bearer(revoked.key), grants: grants() },
    { label: 'expired key', headers: bearer(expiring), grants: grants() },
    { label: 'unknown key', headers: bearer(`${firstKey.slice(0, -4)}zzzz`), grants: grants() },
    { label: 'key with a character more', headers: bearer(`${firstKey}x`), grants: grants() },
    { label: 'key upper-cased', headers: bearer(firstKey.toUpperCase()), grants: grants() },
    { label: 'admin token cut short', headers: bearer(admin.slice(0, -1)), grants: grants() },
    { label: 'bearer without token', headers: { authorization: 'Bearer' }, grants: grants() },
    { label: 'basic auth', headers: { authorization: 'Basic dXNlcjpwYXNz' }, grants: grants() },
    {
      label: 'two tokens',
      headers: { authorization: `Bearer ${firstKey} ${firstKey}` },
      grants: grants(),
    },
    { label: 'token scheme', headers: { authorization: `Token ${firstKey}` }, grants: grants() },
    {
      label: 'wrong bearer, right X-API-Key',
      headers: { ...bearer(`${firstKey}x`), 'x-api-key': firstKey },
      grants: grants(),
    },
    { label: 'garbage X-API-Key', headers: { 'x-api-key': "' OR 1=1 --" }, grants: grants() },
    { label: 'huge bearer', headers: bearer(`pi_${'a'.repeat(4000)}`), grants: grants() },
  ];

  const etags = await Promise.all(
    [
      '/api/files/acme.io/version/20250105',
      '/api/files/acme/quarter/2025Q1',
      '/api/pricing/acme?version=20250105',
      '/api/pricing/acme/diff?from=20250105&to=20250212',
    ].map(async (path) => (await request(path)).headers.get('etag') as string),
  );
  const { next_cursor: cursor } = (await (await request('/api/changes?limit=1')).json()) as {
    next_cursor: string;
  };
  // Keys the admin routes may read and revoke at will (never the ones the requests carry).
  const disposableKeyIds = await Promise.all(
    Array.from(
      { length: 4 },
      async (_, index) =>
        (await keys.create({ name: `disposable ${index}`, plan: 'free', scopes: ['read'] })).id,
    ),
  );
  const batchId = await testApp.ingest([records.company('acme.io', { name: 'Acme' })]);

  // Mostly the fixture's own values, so that most requests find something.
  const versions = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('20250105', '20250212') },
    fc.constantFrom('20250231', '20991231'),
    fc
      .date({ min: new Date('2024-01-01'), max: new Date('2026-12-31'), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10).replaceAll('-', '')),
  );
  const companySlugs = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('acme.io', 'multi.io', 'nopages.io') },
    fc.integer({ min: 1, max: 50 }).map((n) => `fuzz-${n}.io`),
  );
  const webUrls = fc.webUrl({ withQueryParameters: true, withFragments: true });
  const slugs = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom('acme.io', 'acme', 'acme.enterprise', 'multi', 'multi.team'),
    },
    companySlugs,
  );
  /** The fixture's pages, each by one of its slugs. */
  const pages = ['acme', 'acme.enterprise', 'multi.team', 'multi.business'];
  const parameters: Hints = {
    slug: slugs,
    // Pages compared: mostly different pages of the fixture, else any slugs, too few or too many.
    slugs: fc
      .oneof(
        {
          weight: 3,
          arbitrary: fc.shuffledSubarray(pages, { minLength: 2 }),
        },
        fc.array(slugs, { minLength: 1, maxLength: 11 }),
      )
      .map((list) => list.join(',')),
    company: companySlugs,
    // Size bands (one, as the companies list takes, or a list, as the analytics routes take) and
    // the fixture's values of the open vocabularies the analytics routes filter by: the routes
    // with many parameters succeed only when each is valid (every value is also sent altered).
    employees: fc.constantFrom('51-200', '1000+', '51-200,201-500'),
    billing: fc.constant('monthly_recurring_billed_monthly'),
    charge_type: fc.constant('metered'),
    modality: fc.constant('user_based'),
    usage_type: fc.constant('licensed'),
    discount_category: fc.constant('annual_discount'),
    // A charge's own currency, and amounts as decimals (a number's schema is drawn in exponent
    // form too, which the plan search refuses), a minimum never above a maximum: with twenty
    // parameters, the plan search succeeds only when each one drawn is valid.
    price_currency: fc.constantFrom('USD', 'eur'),
    min_monthly: fc.constantFrom('0', '4.5'),
    max_monthly: fc.constantFrom('50', '1000.25'),
    category: fc
      .tuple(fc.constantFrom(...CATEGORIES), fc.constantFrom('as is', 'lower', 'upper'))
      .map(([category, spelling]) =>
        spelling === 'lower'
          ? category.toLowerCase()
          : spelling === 'upper'
            ? category.toUpperCase()
            : category,
      ),
    version: versions,
    from: versions,
    to: versions,
    as_of: versions,
    step: fc.constantFrom('week', 'month', 'quarter', 'day'),
    currency: fc.constantFrom('USD', 'eur', 'GBP', 'JPY', 'EURO', 'U1D'),
    quarter: fc.constantFrom('2025Q1', '2025q1', '2024Q4', '2025Q5'),
    month: fc.constantFrom('2025M01', '202502', '2025m2', '202513'),
    week: fc.constantFrom('2025W02', '2020W53', '2021W53', '2025w7'),
    period: fc.constantFrom('20250105', '2025Q1', '2025M02', '202501', '2025W06', '2024Q4'),
    // The fixture's cursor, and cursors of the same form (opaque to clients, but a near miss
    // of a real one is what a careless client sends): positions up to 19 digits, the longest
    // the form allows.
    since: fc.oneof(
      fc.constantFrom(cursor, 'MC40Mi4w'),
      fc
        .tuple(feedPositionPart(), feedPositionPart(), fc.integer({ min: 0, max: 999_999_999 }))
        .map((parts) => Buffer.from(parts.join('.')).toString('base64url')),
    ),
    batchId: fc.oneof(fc.constant(batchId), fc.uuid()),
    // Keys and webhooks of others (the calling key's own webhooks come from its credential): a
    // key as often as a webhook, though there are fewer keys, so the admin routes find one too.
    id: fc.oneof(
      fc.constantFrom(...disposableKeyIds),
      fc.constantFrom(...webhookIds.flat()),
      fc.uuid(),
    ),
  };
  // Fields of records, key and webhook registrations: company slugs only (a company named
  // like a composite page slug would hide the page from the path parameters above).
  const fields: Hints = {
    slug: companySlugs,
    company_slug: companySlugs,
    companies: companySlugs,
    page_slug: fc.constantFrom('', 'enterprise', 'team', 'business', 'new'),
    version: versions,
    scraper: fc.constantFrom('scraper_1', 'scraper_2', 'scraper_3', 'scraper_4', 'scraper_9'),
    plan: fc.constantFrom('free', 'pro', 'enterprise', 'platinum'),
    // A webhook's url, and a company's: never a host outside this machine.
    url: fc.constantFrom(hookUrl, `${hookUrl}?source=fuzz`, hookUrl.replace('http:', 'https:')),
    page_url: webUrls,
    pricing_page_url: webUrls,
    screenshot_url: fc.option(webUrls),
    markdown_url: fc.option(webUrls),
    html_url: fc.option(webUrls),
    ocr_url: fc.option(webUrls),
  };
  // The expiring key has expired before the first request.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt + 50 - Date.now())));
  return {
    values: new SchemaValues(served.components.schemas, fields),
    parameters,
    credentials,
    etags,
  };
}

/** A number of the change feed's cursor: small, or up to the 19 digits the cursor's form allows. */
function feedPositionPart(): fc.Arbitrary<string> {
  return fc
    .oneof(fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 0n, max: 10n ** 19n - 1n }))
    .map(String);
}
