import Ajv2020Module, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { responseRecorder } from './response-recorder.js';

/**
 * Checks responses against the service's own OpenAPI document: the status must be one the
 * operation documents, a JSON body must match the documented schema, and documented required
 * headers (X-Request-Id) must be present. The end-to-end tests run every response they get
 * through it (test-app.ts), so the document cannot drift from what the code answers. With
 * RECORD_RESPONSES set it also records each JSON body it passed (response-recorder.ts), for the
 * check of a generated client's types.
 *
 * Schemas are compiled with Ajv's JSON Schema 2020-12 dialect, which OpenAPI 3.1 uses. Two
 * adjustments make the check stricter or possible:
 * - an object schema that lists properties and says nothing about others gets
 *   `additionalProperties: false`, so an undocumented field fails the test (the served
 *   document stays open to additions; free-form objects such as `details` say `true`);
 * - OpenAPI 3.0's `nullable: true`, should the document ever use it, becomes a type union.
 */

// ajv and ajv-formats are CommonJS; under nodenext their default export sits on `.default`.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

type JsonObject = Record<string, unknown>;

interface MediaType {
  schema?: JsonObject;
}

interface HeaderObject {
  required?: boolean;
  $ref?: string;
}

interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaType>;
}

interface Operation {
  operationId?: string;
  responses: Record<string, ResponseObject>;
}

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonObject>; headers?: Record<string, HeaderObject> };
}

const COMPONENTS_ID = 'openapi-components';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keywords whose value is data (examples, defaults), not a schema: left untouched. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** A copy of `schema` ready for Ajv: refs into components, nullable as unions, closed objects. */
export function prepareSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(prepareSchema);
  if (!isObject(schema)) return schema;
  const prepared: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || key === 'discriminator' || key === 'xml') continue;
    if (key === 'example' || key === 'externalDocs') continue;
    if (DATA_KEYWORDS.has(key)) prepared[key] = value;
    else if (key === '$ref' && typeof value === 'string') {
      prepared.$ref = value.replace('#/components/schemas/', `${COMPONENTS_ID}#/$defs/`);
    } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
      prepared[key] = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [name, prepareSchema(inner)]),
      );
    } else prepared[key] = prepareSchema(value);
  }
  if (prepared.nullable === true) return nullableToUnion(prepared);
  delete prepared.nullable;
  if (isObject(prepared.properties) && prepared.additionalProperties === undefined) {
    prepared.additionalProperties = false;
  }
  return prepared;
}

/** OpenAPI 3.0 `nullable: true` as JSON Schema: null joins the type (or the alternatives). */
function nullableToUnion(schema: JsonObject): JsonObject {
  const { nullable: _nullable, ...rest } = schema;
  if (rest.type !== undefined) {
    const types = Array.isArray(rest.type) ? rest.type : [rest.type];
    rest.type = types.includes('null') ? types : [...types, 'null'];
    if (Array.isArray(rest.enum) && !rest.enum.includes(null)) rest.enum = [...rest.enum, null];
    return rest;
  }
  const { description, ...inner } = rest;
  return {
    ...(description === undefined ? {} : { description }),
    anyOf: [inner, { type: 'null' }],
  };
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  operation: Operation;
}

export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  private readonly routes: Route[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    if (!/^3\.[01]\./.test(document.openapi)) {
      throw new Error(`OpenAPI ${document.openapi} is not supported by the test validator`);
    }
    addFormats(this.ajv);
    const schemas = Object.entries(document.components?.schemas ?? {});
    this.ajv.addSchema({
      $id: COMPONENTS_ID,
      $defs: Object.fromEntries(schemas.map(([name, schema]) => [name, prepareSchema(schema)])),
    });
    for (const [template, item] of Object.entries(document.paths)) {
      const pattern = new RegExp(
        `^${template
          .split(/(\{[^}]+\})/)
          .map((part) =>
            part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
          )
          .join('')}$`,
      );
      for (const [method, operation] of Object.entries(item)) {
        if (HTTP_METHODS.includes(method)) {
          this.routes.push({ method: method.toUpperCase(), template, pattern, operation });
        }
      }
    }
    // A literal segment wins over a template parameter: fewer parameters first.
    const parameters = (route: Route) => route.template.split('{').length;
    this.routes.sort((a, b) => parameters(a) - parameters(b));
  }

  /** The documented operation of a request, or null when the document has none. */
  route(method: string, pathname: string): Route | null {
    const wanted = method.toUpperCase() === 'HEAD' ? ['HEAD', 'GET'] : [method.toUpperCase()];
    for (const candidate of wanted) {
      const route = this.routes.find((r) => r.method === candidate && r.pattern.test(pathname));
      if (route) return route;
    }
    return null;
  }

  /**
   * Throws when the response breaks the document. Undocumented routes are not checked (the
   * router's own 404 for a path the service does not have, Swagger UI's assets).
   */
  async check(method: string, url: string, response: Response): Promise<void> {
    const { pathname } = new URL(url);
    const route = this.route(method, pathname);
    if (!route) return;
    const where = `${method.toUpperCase()} ${pathname} (${route.operation.operationId ?? route.template})`;
    const status = response.status;
    const responseKey = [String(status), `${String(status)[0]}XX`, 'default'].find(
      (key) => route.operation.responses[key] !== undefined,
    );
    const documented =
      responseKey === undefined ? undefined : route.operation.responses[responseKey];
    const text = method.toUpperCase() === 'HEAD' ? '' : await response.clone().text();
    if (!documented || responseKey === undefined) {
      throw new Error(
        `OpenAPI: ${where} answered ${status}, which the document does not list ` +
          `(documented: ${Object.keys(route.operation.responses).join(', ')}). ` +
          `Body: ${text.slice(0, 500)}`,
      );
    }
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const resolved = this.header(header);
      if (resolved.required && !response.headers.has(name)) {
        throw new Error(`OpenAPI: ${where} answered ${status} without the ${name} header`);
      }
    }
    if (text === '') {
      if (documented.content?.['application/json']?.schema && status !== 204 && status !== 304) {
        throw new Error(
          `OpenAPI: ${where} answered ${status} with no body; a JSON body is documented`,
        );
      }
      return;
    }
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    const content = documented.content?.[mediaType];
    if (!content) {
      throw new Error(
        `OpenAPI: ${where} answered ${status} with a ${mediaType || 'untyped'} body, which the ` +
          `document does not list (documented: ${Object.keys(documented.content ?? {}).join(', ') || 'no body'}). ` +
          `Body: ${text.slice(0, 500)}`,
      );
    }
    // A JSON document: application/json or a +json type; NDJSON is lines of them, not one.
    if (!/[/+]json$/.test(mediaType) || !content.schema) return;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(
        `OpenAPI: ${where} answered ${status} with invalid JSON: ${text.slice(0, 500)}`,
      );
    }
    const validate = this.validator(route, status, mediaType, content.schema);
    if (!validate(body)) {
      throw new Error(
        `OpenAPI: the ${status} body of ${where} does not match its documented schema:\n` +
          `${describeErrors(validate.errors ?? [])}\nBody: ${text.slice(0, 2000)}`,
      );
    }
    // Only answers the service gave: the document's own examples, which openapi.test.ts checks
    // here as constructed responses, have no URL.
    if (response.url !== '') {
      responseRecorder?.response({
        method: route.method,
        path: route.template,
        status,
        response: responseKey,
        contentType: mediaType,
        body,
      });
    }
  }

  private validator(
    route: Route,
    status: number,
    mediaType: string,
    schema: JsonObject,
  ): ValidateFunction {
    const key = `${route.method} ${route.template} ${status} ${mediaType}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(prepareSchema(schema) as JsonObject);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private header(header: HeaderObject): HeaderObject {
    const name = header.$ref?.replace('#/components/headers/', '');
    return name ? (this.document.components?.headers?.[name] ?? header) : header;
  }
}

function describeErrors(errors: ErrorObject[]): string {
  return errors
    .map((error) => {
      const at = error.instancePath || '(root)';
      const extra =
        error.keyword === 'additionalProperties'
          ? ` (undocumented field "${(error.params as { additionalProperty: string }).additionalProperty}")`
          : '';
      return `  ${at}: ${error.message ?? error.keyword}${extra}`;
    })
    .join('\n');
}

let shared: Promise<OpenApiValidator> | null = null;

/**
 * The validator of the document `baseUrl` serves, built once per process (every app of a test
 * file serves the same document).
 */
export function openApiValidator(baseUrl: string): Promise<OpenApiValidator> {
  shared ??= (async () => {
    const response = await fetch(`${baseUrl}/api/openapi.json`);
    if (response.status !== 200) {
      throw new Error(`GET ${baseUrl}/api/openapi.json answered ${response.status}`);
    }
    const text = await response.text();
    responseRecorder?.document(text);
    return new OpenApiValidator(JSON.parse(text) as OpenApiDocument);
  })();
  shared.catch(() => {
    shared = null;
  });
  return shared;
}
