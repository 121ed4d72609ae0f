import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components, PricingClient } from '#app/client';
import { TransactionRunner } from '#app/persistence';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

const environment = testEnvironment();
let api: TestApp;
const adminToken = environment.env.ADMIN_TOKEN as string;
/** Every key this file creates, to check that no listing or column ever shows one. */
const createdKeys: string[] = [];
/** The typed client with the admin token as its bearer. */
let operator: PricingClient;

type CreatedKey = components['schemas']['CreatedApiKey'];

interface GeneralError {
  error: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Raw: with no token or a wrong one, and bodies the document refuses. */
function admin(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = adminToken,
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return api.request(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function createKey(body: components['schemas']['CreateApiKeyRequest']): Promise<CreatedKey> {
  const { data, error, response } = await operator.POST('/v1/admin/keys', { body });
  expect(response.status, JSON.stringify(error)).toBe(201);
  createdKeys.push(data!.key);
  return data!;
}

/** The listing, and its text to search for secrets. */
async function listKeys() {
  const { data, response } = await operator.GET('/v1/admin/keys');
  expect(response.status).toBe(200);
  return { text: JSON.stringify(data), keys: data!.data };
}

const revoke = async (id: string) =>
  (await operator.DELETE('/v1/admin/keys/{id}', { params: { path: { id } } })).response;

async function expectBadRequest(body: unknown): Promise<GeneralError> {
  const response = await admin('POST', '/admin/keys', body);
  const error = (await response.json()) as GeneralError;
  expect(response.status, JSON.stringify(error)).toBe(400);
  expect(error.error).toBe('Bad Request');
  expect(error.message).toBeTypeOf('string');
  expect(error.details).toBeTypeOf('object');
  return error;
}

function ingestWith(key: string): Promise<Response> {
  return api.request('/ingest/records', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify([records.company('admin-keys.io')]),
  });
}

beforeAll(async () => {
  // The worker is not needed: nothing here waits for a record to be applied.
  api = await startTestApp(environment.config(), { withWorker: false });
  operator = api.client(adminToken);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('the admin token guards /v1/admin/keys', () => {
  it.each([
    ['no token', null],
    ['a wrong token', `${adminToken}-wrong`],
    ['an empty bearer', ''],
  ])('answers 401 in the general shape with %s', async (_name, token) => {
    for (const [method, path] of [
      ['POST', '/admin/keys'],
      ['GET', '/admin/keys'],
      ['DELETE', `/admin/keys/${randomUUID()}`],
    ] as const) {
      const response = await admin(
        method,
        path,
        method === 'POST' ? { name: 'x', plan: 'free' } : undefined,
        token,
      );
      expect(response.status, `${method} ${path}`).toBe(401);
      const body = (await response.json()) as GeneralError;
      expect(body.error).toBe('Unauthorized');
      expect(body.message).toBeTypeOf('string');
      expect(body.message.length).toBeGreaterThan(0);
      expect(body.details).toBeTypeOf('object');
      expect(body).not.toHaveProperty('code');
    }
  });

  it('refuses an API key in place of the admin token', async () => {
    const { key } = await createKey({ name: 'not-admin', plan: 'enterprise' });
    const { response } = await api.client(key).GET('/v1/admin/keys');
    expect(response.status).toBe(401);
  });
});

describe('POST /v1/admin/keys', () => {
  it('answers 201 with exactly the documented fields, scopes defaulting to read', async () => {
    const before = Date.now();
    const created = await createKey({ name: 'dashboard', plan: 'pro' });
    expect(Object.keys(created).sort()).toEqual(
      ['created_at', 'expires_at', 'id', 'key', 'name', 'plan', 'scopes'].sort(),
    );
    expect(created).toMatchObject({
      name: 'dashboard',
      plan: 'pro',
      scopes: ['read'],
      expires_at: null,
    });
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(created.key).toBeTypeOf('string');
    expect(created.key.length).toBeGreaterThanOrEqual(22); // at least 128 bits of base64
    expect(new Date(created.created_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('keeps the given scopes and expiry', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await createKey({
      name: 'pipeline',
      plan: 'enterprise',
      scopes: ['read', 'ingest'],
      expires_at: expiresAt,
    });
    expect(created.scopes).toEqual(['read', 'ingest']);
    expect(new Date(created.expires_at as string).getTime()).toBe(new Date(expiresAt).getTime());
  });

  it('creates a different key each time', async () => {
    const a = await createKey({ name: 'twin', plan: 'free' });
    const b = await createKey({ name: 'twin', plan: 'free' });
    expect(a.id).not.toBe(b.id);
    expect(a.key).not.toBe(b.key);
  });

  it('400 for an unknown plan, listing the valid ones', async () => {
    const error = await expectBadRequest({ name: 'x', plan: 'platinum' });
    expect(error.details).toMatchObject({
      parameter: 'plan',
      provided: 'platinum',
      valid_values: ['free', 'pro', 'enterprise'],
    });
    expect(JSON.stringify(error)).toContain('plan');
  });

  it.each([
    ['an unknown scope', { name: 'x', plan: 'free', scopes: ['admin'] }, 'scopes'],
    ['empty scopes', { name: 'x', plan: 'free', scopes: [] }, 'scopes'],
    ['scopes that are not an array', { name: 'x', plan: 'free', scopes: 'read' }, 'scopes'],
    ['an unknown field', { name: 'x', plan: 'free', role: 'root' }, 'role'],
    ['a missing name', { plan: 'free' }, 'name'],
    ['an empty name', { name: '', plan: 'free' }, 'name'],
    ['a missing plan', { name: 'x' }, 'plan'],
    [
      'an expiry in the past',
      { name: 'x', plan: 'free', expires_at: '2020-01-01T00:00:00Z' },
      'expires_at',
    ],
    [
      'an expiry that is not a time',
      { name: 'x', plan: 'free', expires_at: 'tomorrow' },
      'expires_at',
    ],
    ['a body that is not an object', ['x'], null],
  ])('400 for %s', async (_name, body, field) => {
    const error = await expectBadRequest(body);
    // The answer names the offending field.
    if (field) expect(JSON.stringify(error.details)).toContain(field);
  });

  it('creates nothing when it refuses', async () => {
    const { keys: before } = await listKeys();
    await expectBadRequest({ name: 'refused', plan: 'platinum' });
    await expectBadRequest({ name: 'refused', plan: 'free', scopes: ['admin'] });
    const { keys: after } = await listKeys();
    expect(after).toHaveLength(before.length);
    expect(after.some((key) => key.name === 'refused')).toBe(false);
  });
});

describe('GET /v1/admin/keys', () => {
  it('lists every key with status and last_used_at, and never a secret', async () => {
    const active = await createKey({ name: 'list-active', plan: 'free', scopes: ['ingest'] });
    const revoked = await createKey({ name: 'list-revoked', plan: 'free' });
    const expiring = await createKey({
      name: 'list-expired',
      plan: 'free',
      expires_at: new Date(Date.now() + 1_000).toISOString(),
    });
    expect((await revoke(revoked.id)).status).toBe(204);
    // A use of the active key is recorded as last_used_at.
    const used = await api.client(active.key).GET('/v1/ingest/batches/{batchId}', {
      params: { path: { batchId: randomUUID() } },
    });
    expect(used.response.status).toBe(404);
    await new Promise((next) => setTimeout(next, 1_200));

    const { text, keys } = await listKeys();
    const byId = new Map(keys.map((key) => [key.id, key]));
    expect(byId.get(active.id)).toMatchObject({
      name: 'list-active',
      plan: 'free',
      scopes: ['ingest'],
      status: 'active',
    });
    expect(byId.get(active.id)?.last_used_at).toBeTypeOf('string');
    expect(byId.get(revoked.id)).toMatchObject({ status: 'revoked', last_used_at: null });
    expect(byId.get(expiring.id)).toMatchObject({ status: 'expired', last_used_at: null });
    for (const key of keys) {
      expect(['active', 'revoked', 'expired']).toContain(key.status);
      expect(key).toHaveProperty('last_used_at');
      expect(key).toHaveProperty('created_at');
      expect(key).not.toHaveProperty('key');
      expect(Object.keys(key).filter((field) => /hash|secret|^key$/i.test(field))).toEqual([]);
    }
    expect(createdKeys.length).toBeGreaterThan(3);
    for (const secret of createdKeys) expect(text).not.toContain(secret);
    // No value in the listing is, or contains, a created key.
    const values: string[] = [];
    JSON.parse(text, (_field, value: unknown) => {
      if (typeof value === 'string') values.push(value);
      return value;
    });
    for (const value of values) {
      for (const secret of createdKeys) expect(value.includes(secret)).toBe(false);
    }
  });
});

describe('DELETE /v1/admin/keys/{id}', () => {
  it('revokes (204): the key then gets 401; a second DELETE is 204 too', async () => {
    const created = await createKey({ name: 'to-revoke', plan: 'enterprise', scopes: ['ingest'] });
    expect((await ingestWith(created.key)).status).toBe(202);

    const first = await revoke(created.id);
    expect(first.status).toBe(204);
    expect(await first.text()).toBe('');

    const refused = await ingestWith(created.key);
    expect(refused.status).toBe(401);
    const body = (await refused.json()) as GeneralError;
    expect(body.error).toBe('Unauthorized');
    expect(body.message).toMatch(/revoked/);

    const again = await revoke(created.id);
    expect(again.status).toBe(204);
    expect((await ingestWith(created.key)).status).toBe(401);
    const { keys } = await listKeys();
    expect(keys.find((key) => key.id === created.id)?.status).toBe('revoked');
  });

  it('404 for an unknown id', async () => {
    const id = randomUUID();
    const { error, response } = await operator.DELETE('/v1/admin/keys/{id}', {
      params: { path: { id } },
    });
    expect(response.status).toBe(404);
    expect(error!.error).toBe('Not Found');
    expect(error!.message).toBeTypeOf('string');
  });

  it('revoking one key leaves the others working', async () => {
    const keep = await createKey({ name: 'keep', plan: 'enterprise', scopes: ['ingest'] });
    const drop = await createKey({ name: 'drop', plan: 'enterprise', scopes: ['ingest'] });
    expect((await revoke(drop.id)).status).toBe(204);
    expect((await ingestWith(keep.key)).status).toBe(202);
    expect((await ingestWith(drop.key)).status).toBe(401);
  });
});

describe('a key created through the admin API', () => {
  it('with the ingest scope passes the ingest guard: an unknown batch is 404, not 401', async () => {
    const created = await createKey({ name: 'ingest-only', plan: 'free', scopes: ['ingest'] });
    const batchId = randomUUID();
    const response = await api.request(`/ingest/batches/${batchId}`, {
      headers: { 'x-api-key': created.key },
    });
    expect(response.status).toBe(404);
    const body = (await response.json()) as GeneralError;
    expect(body.error).toBe('Not Found');
    expect(body.details).toMatchObject({ batch_id: batchId });
  });

  it('with only the read scope is refused by the ingest endpoint (403)', async () => {
    const created = await createKey({ name: 'read-only', plan: 'enterprise' });
    expect((await ingestWith(created.key)).status).toBe(403);
  });

  it('is stored as a hash: no column of api_keys holds the key text', async () => {
    const created = await createKey({ name: 'hashed', plan: 'pro', scopes: ['read', 'ingest'] });
    const rows = await api.app
      .get(TransactionRunner)
      .query<Record<string, unknown>>('SELECT * FROM api_keys');
    expect(rows.length).toBe(new Set(createdKeys).size);
    const row = rows.find((candidate) => candidate.id === created.id);
    expect(row).toBeDefined();
    expect(row?.key_hash).toBeTypeOf('string');
    expect(row?.key_hash).not.toBe(created.key);
    for (const stored of rows) {
      for (const [column, value] of Object.entries(stored)) {
        if (value === null || value === undefined) continue;
        const text = String(value);
        for (const secret of createdKeys) {
          expect(text.includes(secret), `api_keys.${column} holds a key`).toBe(false);
        }
      }
    }
    // The stored hash still authenticates the key.
    expect((await ingestWith(created.key)).status).toBe(202);
  });
});
