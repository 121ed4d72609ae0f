import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPricingClient, creditsRemaining } from '#app/client';
import {
  CLIENT_PARAMETERS_FILE,
  CLIENT_SCHEMA_FILE,
  clientParametersSource,
  clientSchemaSource,
} from './client-types/client-schema.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/*
 * The typed client in libs/client: generated from the document the service serves (a route,
 * parameter or answer changed without `npm run client:generate` fails here), and usable as a
 * client of the API, the way the end-to-end tests use it.
 */

const environment = testEnvironment();
let api: TestApp;

beforeAll(async () => {
  api = await startTestApp(environment.config(), { withWorker: false });
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('the typed client', () => {
  it('is what openapi-typescript generates from the served document (npm run client:generate)', async () => {
    const served = (await (await fetch(`${api.baseUrl}/api/openapi.json`)).json()) as object;
    expect(readFileSync(CLIENT_SCHEMA_FILE, 'utf8')).toBe(await clientSchemaSource(served));
    expect(readFileSync(CLIENT_PARAMETERS_FILE, 'utf8')).toBe(
      clientParametersSource(served as never),
    );
  });

  it('is what a user calls the API with: typed answers, the credits left, errors in their documented shape', async () => {
    const client = createPricingClient({
      apiUrl: api.baseUrl,
      apiKey: await api.createKey(['read'], 'pro'),
    });

    const first = await client.GET('/v1/api/companies', { params: { query: { limit: 5 } } });
    expect(first.response.status).toBe(200);
    expect(first.error).toBeUndefined();
    expect(first.data!.pagination).toMatchObject({ page: 1, limit: 5 });
    const left = creditsRemaining(first.response);
    expect(left).toBeTypeOf('number');

    // An unknown page: no data, and the error typed as the route's documented error bodies.
    const missing = await client.GET('/v1/api/pricing/{slug}', {
      params: { path: { slug: 'nowhere.io' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expect(missing.error?.code).toBe('NOT_FOUND');
    expect(missing.error?.details).toMatchObject({ slug: 'nowhere.io' });
    // A refused call costs nothing; the next answered one costs a credit.
    expect(creditsRemaining(missing.response)).toBe(left);
    const second = await client.GET('/v1/api/companies', { params: { query: { limit: 5 } } });
    expect(creditsRemaining(second.response)).toBe(left! - 1);
  });
});
