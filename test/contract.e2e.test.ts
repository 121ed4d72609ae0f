import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPricingClient, type PricingClient } from '#app/client';
import { buildDemoCatalogue } from '../apps/api/src/demo/demo-catalogue.js';
import { EXAMPLES } from '../apps/api/src/openapi/parameters.js';
import {
  apiReady,
  showOutputOnFailure,
  startServiceProcess,
  stopApiProcess,
  type ApiProcess,
} from './support/api-process.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/**
 * Dredd, a contract tester nobody here wrote, sends every operation of the served OpenAPI
 * document to a real service, with the document's own parameter examples and request bodies, and
 * checks each 2xx answer (status, headers, body) against what the document says. The service is
 * what `npm start` runs, on a fresh database, seeded with the demo catalogue's records of the
 * company the examples name. Its hooks (support/dredd-hooks.cjs) add the credentials and the ids
 * the service assigns. Dredd reads OpenAPI 3.1 with warnings: it ignores the keywords it does not
 * know (pattern, format, anyOf...), which the Ajv check of every end-to-end response covers.
 */

const require = createRequire(import.meta.url);
const DREDD = require.resolve('dredd/bin/dredd');
const HOOKS = fileURLToPath(new URL('./support/dredd-hooks.cjs', import.meta.url));
const STANDALONE = 'dist/apps/standalone/src/main.js';

// Private URLs: the document's webhook example (hooks.example.com) need not resolve here.
const environment = testEnvironment({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
let service: ApiProcess;

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, unknown> };
        responses: Record<string, { content?: Record<string, unknown> }>;
      }
    >
  >;
}

beforeAll(async () => {
  service = await startServiceProcess('standalone', STANDALONE, environment.env, {
    portVariable: 'PORT',
    basePath: '/v1',
  });
  await apiReady(service);
});

afterAll(async () => {
  if (service) await stopApiProcess(service);
  await environment.cleanup();
});

/** The typed client of the running service, with `token` as its bearer. */
function clientOf(token: string): PricingClient {
  return createPricingClient({ apiUrl: service.baseUrl, apiKey: token });
}

/** Raw: the demo records are the domain's, looser than the document's request body. */
async function call(path: string, token: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/** A key made through the admin API, as an operator makes one. */
async function createKey(): Promise<string> {
  const { data, error } = await clientOf(environment.env.ADMIN_TOKEN!).POST('/v1/admin/keys', {
    body: { name: 'contract', plan: 'enterprise', scopes: ['read', 'ingest'] },
  });
  if (!data) throw new Error(`creating a key failed: ${JSON.stringify(error)}`);
  return data.key;
}

/**
 * The demo catalogue's records of the examples' companies and its exchange rates (for the
 * examples that convert prices), pushed and projected.
 */
async function seed(key: string): Promise<void> {
  const companies: string[] = [EXAMPLES.companySlug, EXAMPLES.otherCompanySlug];
  const records = buildDemoCatalogue().filter((record) => {
    if (record.type === 'exchange_rate') return true;
    return companies.includes(record.type === 'company' ? record.slug : record.company_slug);
  });
  const versionsOf = (company: string) =>
    records.flatMap((record) =>
      record.type === 'pricing' && record.company_slug === company ? [record.version] : [],
    );
  expect(versionsOf(EXAMPLES.companySlug)).toContain(EXAMPLES.version);
  expect(versionsOf(EXAMPLES.companySlug)).toContain(EXAMPLES.laterVersion);
  const { batch_id } = (await call('/ingest/records', key, {
    method: 'POST',
    body: JSON.stringify(records),
  })) as { batch_id: string };
  const client = clientOf(key);
  // Polls well below the burst limit (20 a second), which these free reads count against.
  const status = await waitFor(
    'the seed batch to settle',
    async () => {
      const { data: batch, error } = await client.GET('/v1/ingest/batches/{batchId}', {
        params: { path: { batchId: batch_id } },
      });
      if (!batch) throw new Error(`the batch status answered ${JSON.stringify(error)}`);
      return batch.complete ? batch : undefined;
    },
    30_000,
    200,
  );
  expect(status.counts).toMatchObject({ done: records.length, failed: 0 });
  // The worker projects the log a moment after the batch is done.
  for (const company of companies) {
    await waitFor(
      `the seed of ${company} to be projected`,
      async () => {
        const { data: page, error } = await client.GET('/v1/api/pricing/{slug}/versions', {
          params: { path: { slug: company } },
        });
        if (!page) throw new Error(`the versions answered ${JSON.stringify(error)}`);
        return page.count === versionsOf(company).length ? page : undefined;
      },
      30_000,
      200,
    );
  }
}

/** The transactions Dredd makes for 2xx answers: one per request and response media type. */
function successfulTransactions(document: OpenApiDocument): number {
  let count = 0;
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const requestTypes = Object.keys(operation.requestBody?.content ?? {}).length || 1;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^2\d\d$/.test(status)) continue;
        count += requestTypes * (Object.keys(response.content ?? {}).length || 1);
      }
    }
  }
  return count;
}

async function dredd(key: string): Promise<{ code: number | null; output: string }> {
  const origin = new URL(service.baseUrl).origin;
  const child = spawn(
    process.execPath,
    // Dredd's warnings about the OpenAPI 3.1 keywords it ignores would bury the results.
    [
      DREDD,
      `${service.baseUrl}/api/openapi.json`,
      origin,
      '--hookfiles',
      HOOKS,
      '--loglevel',
      'error',
      '--color',
      'false',
    ],
    {
      env: {
        ...process.env,
        CONTRACT_API_KEY: key,
        CONTRACT_DOCUMENT_URL: `${service.baseUrl}/api/openapi.json`,
        CONTRACT_ADMIN_TOKEN: environment.env.ADMIN_TOKEN!,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

describe('the served OpenAPI document, checked by Dredd against a running service', () => {
  it('describes every 2xx answer of every operation, with examples that name real data', async () => {
    showOutputOnFailure([service]);
    const key = await createKey();
    await seed(key);
    const document = (await (
      await fetch(`${service.baseUrl}/api/openapi.json`)
    ).json()) as OpenApiDocument;

    const { code, output } = await dredd(key);
    const summary = /complete: (\d+) passing, (\d+) failing, (\d+) errors, (\d+) skipped/.exec(
      output,
    );
    expect(summary, output.slice(-20_000)).not.toBeNull();
    const [passing, failing, errors] = summary!.slice(1, 4).map(Number);
    expect({ failing, errors }, output.slice(-20_000)).toEqual({ failing: 0, errors: 0 });
    expect(passing).toBe(successfulTransactions(document));
    expect(code).toBe(0);
  });
});
