import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * docs/API.md, the interface reference, stays in step with the OpenAPI document the service
 * serves. The reference's convention, which this test relies on:
 *
 * - every operation has a section whose heading is exactly ``### `METHOD /path` `` (the path as
 *   the document writes it, parameters in braces); the section runs to the next heading of level
 *   1 to 3;
 * - a section of a documented operation holds `**Cost:** <n>` (its x-credit-cost) and a line
 *   `**Answers:** 200, 400, ...` listing exactly the statuses the document lists for it, and
 *   names each of its parameters in backticks;
 * - error codes and error categories are written in backticks.
 */

const REFERENCE_PATH = new URL('../docs/API.md', import.meta.url);

/** Routes served outside the OpenAPI document that the reference documents all the same. */
const OUTSIDE_THE_DOCUMENT = [
  'GET /',
  'GET /v1',
  'GET /v1/docs',
  'GET /explorer',
  'POST /mcp',
  'GET /v1/admin/queues',
  'GET /health/live',
  'GET /health/ready',
  'GET /metrics',
];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

const OPERATION_HEADING = /^### `([A-Z]+) (\/\S*)`\s*$/;
const SECTION_END = /^#{1,3} /;

interface Parameter {
  name: string;
  in: string;
}

interface Operation {
  parameters?: Parameter[];
  responses: Record<string, unknown>;
  'x-credit-cost'?: unknown;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

const environment = testEnvironment();
let api: TestApp;
let document: OpenApiDocument;
let sections: Map<string, string>;

/** `METHOD /path` → the operation, for every operation of the document. */
function operations(): Map<string, Operation> {
  const found = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (HTTP_METHODS.includes(method)) {
        found.set(`${method.toUpperCase()} ${path}`, operation as Operation);
      }
    }
  }
  return found;
}

/** `METHOD /path` → the text of its section in the reference (heading excluded). */
function operationSections(markdown: string): Map<string, string> {
  const found = new Map<string, string>();
  let current: { operation: string; lines: string[] } | null = null;
  const close = () => {
    if (!current) return;
    if (found.has(current.operation)) {
      throw new Error(`docs/API.md has two sections for ${current.operation}`);
    }
    found.set(current.operation, current.lines.join('\n'));
    current = null;
  };
  let inCodeBlock = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCodeBlock = !inCodeBlock;
    if (inCodeBlock) {
      current?.lines.push(line);
      continue;
    }
    const heading = OPERATION_HEADING.exec(line);
    if (heading || SECTION_END.test(line)) close();
    if (heading) current = { operation: `${heading[1]} ${heading[2]}`, lines: [] };
    else current?.lines.push(line);
  }
  close();
  return found;
}

/** The statuses of a section's `**Answers:**` line, or null when it has none. */
function answersOf(section: string): string[] | null {
  const line = /^\*\*Answers:\*\*(.*)$/m.exec(section)?.[1];
  if (line === undefined) return null;
  return line
    .split(',')
    .map((status) => status.trim())
    .filter((status) => status !== '')
    .sort();
}

function costOf(section: string): number | null {
  const cost = /\*\*Cost:\*\* (\d+)/.exec(section)?.[1];
  return cost === undefined ? null : Number(cost);
}

/**
 * Error codes and categories the document names: `code` of every example body and the enum of
 * every `code` property (and the codes its description lists); `error` of every general-shape
 * example body (one with `message` and no `code`) and the enum of every `error` property.
 */
function errorNames(): { codes: Set<string>; categories: Set<string> } {
  const codes = new Set<string>();
  const categories = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    if (typeof object.code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(object.code)) {
      codes.add(object.code);
    }
    if (
      typeof object.error === 'string' &&
      typeof object.message === 'string' &&
      object.code === undefined
    ) {
      categories.add(object.error);
    }
    const properties = object.properties as Record<string, Record<string, unknown>> | undefined;
    if (properties && typeof properties === 'object') {
      const code = properties.code;
      for (const name of (code?.enum as unknown[] | undefined) ?? []) codes.add(String(name));
      if (typeof code?.description === 'string') {
        for (const name of code.description.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []) {
          codes.add(name);
        }
      }
      for (const name of (properties.error?.enum as unknown[] | undefined) ?? []) {
        categories.add(String(name));
      }
    }
    Object.values(object).forEach(walk);
  };
  walk(document);
  return { codes, categories };
}

beforeAll(async () => {
  api = await startTestApp(environment.config(), { withWorker: false });
  const response = await fetch(`${api.baseUrl}/api/openapi.json`);
  document = (await response.json()) as OpenApiDocument;
  sections = operationSections(readFileSync(REFERENCE_PATH, 'utf8'));
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('docs/API.md', () => {
  it('has a section for every operation of the served OpenAPI document', () => {
    expect(operations().size).toBeGreaterThanOrEqual(20);
    const missing = [...operations().keys()].filter((operation) => !sections.has(operation));
    expect(missing).toEqual([]);
  });

  it('documents no route the OpenAPI document lacks, but those served outside it', () => {
    const known = operations();
    const unknown = [...sections.keys()].filter(
      (operation) => !known.has(operation) && !OUTSIDE_THE_DOCUMENT.includes(operation),
    );
    expect(unknown).toEqual([]);
    const undocumented = OUTSIDE_THE_DOCUMENT.filter((operation) => !sections.has(operation));
    expect(undocumented).toEqual([]);
  });

  it('lists for each operation exactly the statuses the document gives it', () => {
    const differences = [...operations()].flatMap(([operation, { responses }]) => {
      const documented = Object.keys(responses).sort();
      const listed = answersOf(sections.get(operation) ?? '');
      return listed && listed.join(',') === documented.join(',')
        ? []
        : [{ operation, document: documented, reference: listed }];
    });
    expect(differences).toEqual([]);
  });

  it("states each operation's credit cost as the document's x-credit-cost", () => {
    const differences = [...operations()].flatMap(([operation, details]) => {
      const stated = costOf(sections.get(operation) ?? '');
      return stated === details['x-credit-cost']
        ? []
        : [{ operation, document: details['x-credit-cost'], reference: stated }];
    });
    expect(differences).toEqual([]);
  });

  it('names every parameter of each operation in its section', () => {
    const missing = [...operations()].flatMap(([operation, { parameters = [] }]) =>
      parameters
        .filter((parameter) => !(sections.get(operation) ?? '').includes(`\`${parameter.name}\``))
        .map((parameter) => `${operation}: ${parameter.in} ${parameter.name}`),
    );
    expect(missing).toEqual([]);
  });

  it('names every error code and error category of the document', () => {
    const reference = readFileSync(REFERENCE_PATH, 'utf8');
    const { codes, categories } = errorNames();
    expect(codes.size).toBeGreaterThanOrEqual(10);
    expect(categories.size).toBeGreaterThanOrEqual(5);
    const missing = [...codes, ...categories].filter((name) => !reference.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
