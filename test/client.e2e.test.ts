import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, clientSchemaSource } from './client-types/client-schema.js';
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
  });
});
