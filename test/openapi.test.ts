import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '#app/domain';
import { errorBody } from '../apps/api/src/errors/error-body.js';
import { OpenApiValidator } from './support/openapi-validator.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/** The routes whose errors have the coded shape `{error, code, details?}`. */
const CODED_ROUTES =
  /^\/v1\/api\/(files\/|pricing\/|plans$|benchmarks(\/series)?$|compare$|export\/)/;

/** The OpenAPI document is served, valid, and says what docs/API.md says about each operation. */

const environment = testEnvironment();
let api: TestApp;
let document: OpenApiDocument;

interface Parameter {
  name: string;
  in: string;
  example?: unknown;
  schema?: Record<string, unknown>;
}

interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  security?: Record<string, string[]>[];
  responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }>;
  'x-credit-cost'?: unknown;
}

interface MediaType {
  examples?: Record<string, { value: unknown }>;
}

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, Record<string, unknown>>;
    schemas: Record<string, unknown>;
  };
}

const DOCUMENT_PATH = '/v1/api/openapi.json';

function operations(): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method, path, operation })),
  );
}

beforeAll(async () => {
  api = await startTestApp(environment.config(), { withWorker: false });
  const response = await fetch(`${api.baseUrl}/api/openapi.json`);
  document = (await response.json()) as OpenApiDocument;
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('GET /v1/api/openapi.json', () => {
  it('is public: 200 JSON without a key, and no credit is involved', async () => {
    const response = await api.request('/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(response.headers.get('x-credits-remaining')).toBeNull();
    const body = (await response.json()) as OpenApiDocument;
    expect(body.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(body.paths[DOCUMENT_PATH]?.get?.security).toEqual([]);
  });

  it('is a valid OpenAPI 3 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('declares the API key schemes (bearer and X-API-Key) and the admin token', () => {
    expect(document.components.securitySchemes).toMatchObject({
      bearer: { type: 'http', scheme: 'bearer' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      adminToken: { type: 'http', scheme: 'bearer' },
    });
  });

  it('states x-credit-cost on every operation: 1 for the reads, 0 for discovery and the rest', () => {
    const all = operations();
    expect(all.length).toBeGreaterThanOrEqual(15);
    for (const { method, path, operation } of all) {
      const discovery = /^\/v1\/api\/(files|pricing)\/\{slug\}\/versions$/.test(path);
      const metered =
        /^\/v1\/api\/(companies|pages|files|pricing|changes|webhooks|plans|benchmarks|compare|export)(\/|$)/.test(
          path,
        ) && !discovery;
      expect(operation['x-credit-cost'], `${method} ${path}`).toBe(metered ? 1 : 0);
    }
  });

  it('puts every operation but the document itself behind a security requirement', () => {
    for (const { method, path, operation } of operations()) {
      if (path === DOCUMENT_PATH) {
        expect(operation.security, path).toEqual([]);
        continue;
      }
      const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
      expect(schemes, `${method} ${path}`).toEqual(
        path.startsWith('/v1/admin/') ? ['adminToken'] : ['bearer', 'apiKey'],
      );
    }
  });

  it('documents 401 and 500 with the error shape of the route family, and X-Request-Id', () => {
    for (const { method, path, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.headers?.['X-Request-Id'], `${method} ${path} ${status}`).toBeDefined();
      }
      if (path === DOCUMENT_PATH) continue;
      const coded = CODED_ROUTES.test(path);
      const schemaOf = (status: string) =>
        JSON.stringify(operation.responses[status]?.content ?? null);
      expect(schemaOf('401'), `${method} ${path}`).toContain(
        coded ? '#/components/schemas/CodedError"' : '#/components/schemas/GeneralError"',
      );
      expect(schemaOf('500'), `${method} ${path}`).toContain(
        coded
          ? '#/components/schemas/CodedServerError"'
          : '#/components/schemas/GeneralServerError"',
      );
    }
  });
});

describe('what tools nobody here wrote need from the document', () => {
  it('lists in the general error enum the category of every status an operation may answer', () => {
    const schema = document.components.schemas.GeneralError as {
      properties: { error: { enum: string[] } };
    };
    const categories = schema.properties.error.enum;
    let checked = 0;
    for (const { method, path, operation } of operations()) {
      if (CODED_ROUTES.test(path)) continue;
      for (const status of Object.keys(operation.responses).filter((code) => code >= '400')) {
        const body = errorBody({ status: Number(status), code: 'X', message: 'm' }, 'general', 'r');
        expect(categories, `${method} ${path} ${status}`).toContain(body.error);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
    // A method no route serves, answered ahead of every route.
    expect(categories).toContain(
      errorBody({ status: 405, code: 'X', message: 'm' }, 'general', 'r').error,
    );
  });

  it('gives every path parameter an example, on the parameter itself', () => {
    let checked = 0;
    for (const { method, path, operation } of operations()) {
      for (const parameter of operation.parameters ?? []) {
        const where = `${method} ${path} ${parameter.name}`;
        // Dredd reads a Parameter Object's own example; OpenAPI 3.1 deprecates it in a schema.
        expect(parameter.schema?.example, where).toBeUndefined();
        if (parameter.in !== 'path') continue;
        expect(parameter.example, where).toEqual(expect.any(String));
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('leaves no object schema without properties, which generators read as an empty object', () => {
    const bare: string[] = [];
    const visit = (schema: unknown, where: string): void => {
      if (Array.isArray(schema)) {
        schema.forEach((item, index) => visit(item, `${where}/${index}`));
        return;
      }
      if (typeof schema !== 'object' || schema === null) return;
      const object = schema as Record<string, unknown>;
      const types = [object.type].flat();
      const open = ['properties', 'additionalProperties', 'patternProperties', '$ref'];
      if (types.includes('object') && !open.some((keyword) => keyword in object)) bare.push(where);
      for (const [key, value] of Object.entries(object)) {
        // Data, not schemas.
        if (['example', 'examples', 'default', 'enum', 'const'].includes(key)) continue;
        visit(value, `${where}/${key}`);
      }
    };
    visit(document.paths, '#/paths');
    visit(document.components.schemas, '#/components/schemas');
    expect(bare).toEqual([]);
  });

  it('takes category in any case: no enum, the eight named', () => {
    const category = document.paths['/v1/api/companies']?.get?.parameters?.find(
      (parameter) => parameter.name === 'category',
    );
    expect(category?.schema).toEqual({ type: 'string' });
    expect(category?.example).toBe('communication');
    for (const name of CATEGORIES) expect(JSON.stringify(category)).toContain(name);
  });

  it('names no error code on the routes whose error body has none', () => {
    // Environment variables are the only upper-case identifiers those routes may name.
    const allowed = new Set(['ADMIN_TOKEN', 'WEBHOOK_ALLOW_PRIVATE_URLS']);
    const general = operations().filter(({ path }) => !CODED_ROUTES.test(path));
    const texts = [
      ...general.map(({ method, path, operation }) => [`${method} ${path}`, operation] as const),
      ...['GeneralError', 'GeneralServerError', 'RateLimitedError', 'ServiceUnavailableError'].map(
        (name) => [name, document.components.schemas[name]] as const,
      ),
    ];
    expect(general.length).toBeGreaterThanOrEqual(10);
    for (const [where, part] of texts) {
      const named = JSON.stringify(part).match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? [];
      expect(
        named.filter((name) => !allowed.has(name)),
        where,
      ).toEqual([]);
    }
  });
});

describe('the examples of the document', () => {
  it('match their schemas, with no undocumented field', async () => {
    const validator = new OpenApiValidator(document as never);
    let checked = 0;
    for (const { method, path, operation } of operations()) {
      const url = `${api.baseUrl}${path.replace(/^\/v1/, '').replace(/\{[^}]+\}/g, 'x')}`;
      for (const [status, response] of Object.entries(operation.responses)) {
        const json = (response.content as Record<string, MediaType> | undefined)?.[
          'application/json'
        ];
        for (const [name, example] of Object.entries(json?.examples ?? {})) {
          const answer = new Response(JSON.stringify(example.value), {
            status: Number(status),
            headers: {
              'content-type': 'application/json',
              'x-request-id': 'r',
              'retry-after': '5',
              'www-authenticate': 'Bearer',
            },
          });
          await expect(
            validator.check(method, url, answer),
            `${method} ${path} ${status} example ${name}`,
          ).resolves.toBeUndefined();
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});

describe('GET /v1/docs', () => {
  it('serves Swagger UI as HTML, with its assets', async () => {
    const page = await api.request('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    const init = await api.request('/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    expect(await init.text()).toContain('x-credit-cost');
    const bundle = await api.request('/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    await bundle.arrayBuffer();
  });
});

describe('the test helper checks responses against the document', () => {
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1' },
    });
  const url = () => `${api.baseUrl}/admin/keys`;

  it('accepts a documented status with a matching body', async () => {
    const validator = new OpenApiValidator(document as never);
    await expect(validator.check('GET', url(), json(200, { data: [] }))).resolves.toBeUndefined();
  });

  it('refuses an undocumented field, a missing field, a wrong type and a wrong null', async () => {
    const validator = new OpenApiValidator(document as never);
    const key = {
      id: '2d9c0b5e-1f4a-4e63-9b8d-7a6c5e4f3d2b',
      name: 'k',
      key_prefix: 'pi_abcd',
      plan: 'free',
      scopes: ['read'],
      status: 'active',
      expires_at: null,
      revoked_at: null,
      created_at: '2025-10-16T08:30:00.000Z',
      last_used_at: null,
    };
    await expect(
      validator.check('GET', url(), json(200, { data: [key] })),
    ).resolves.toBeUndefined();
    const cases: [string, unknown][] = [
      ['undocumented field "key"', { ...key, key: 'pi_secret' }],
      ["must have required property 'plan'", { ...key, plan: undefined }],
      ['must be string', { ...key, name: 42 }],
      ['must be string', { ...key, created_at: null }],
    ];
    for (const [message, body] of cases) {
      await expect(validator.check('GET', url(), json(200, { data: [body] }))).rejects.toThrow(
        message,
      );
    }
  });

  it('refuses a status the operation does not document, and a missing X-Request-Id', async () => {
    const validator = new OpenApiValidator(document as never);
    await expect(
      validator.check('GET', url(), json(418, { error: 'teapot', message: 'no' })),
    ).rejects.toThrow(/answered 418, which the document does not list/);
    const bare = new Response(JSON.stringify({ data: [] }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
    await expect(validator.check('GET', url(), bare)).rejects.toThrow(/X-Request-Id/);
  });

  it('leaves the body readable for the caller', async () => {
    const response = await api.request('/admin/keys', {
      headers: { authorization: `Bearer ${environment.env.ADMIN_TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: expect.any(Array) });
  });
});
