// Dredd hooks of test/contract.e2e.test.ts. Dredd loads them with require() and hands them its
// `hooks` module, hence CommonJS. They supply only what a run cannot take from the document (the
// credentials, the ids the service assigns to what the run creates, an NDJSON body, which Dredd
// cannot send), keep the run to the 2xx answers, compare media types without parameters, let
// Accept pick an export's media type, and expect of an answer only the properties the document
// requires (apiaryio/dredd#1430).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const hooks = require('hooks');

const apiKey = process.env.CONTRACT_API_KEY;
const adminToken = process.env.CONTRACT_ADMIN_TOKEN;
if (!apiKey || !adminToken) throw new Error('CONTRACT_API_KEY and CONTRACT_ADMIN_TOKEN are needed');

/**
 * Paths whose last parameter is an id the service assigned: the path of the request that creates
 * one, and the field of its answer that holds the id. The document's examples show the ids' form
 * only, so the run uses the ids its own earlier requests created (Dredd runs the operations in
 * document order, and each of these follows its creating request).
 */
const CREATED_BY = {
  '/v1/admin/keys/{id}': ['/v1/admin/keys', 'id'],
  '/v1/admin/keys/{id}/usage': ['/v1/admin/keys', 'id'],
  '/v1/api/webhooks/{id}': ['/v1/api/webhooks', 'id'],
  '/v1/ingest/batches/{batchId}': ['/v1/ingest/records', 'batch_id'],
};

/** The answers of this run's creating requests, by their path. */
const created = new Map();

/** The path template of the operation, as the document writes it. */
function template(transaction) {
  return transaction.origin.resourceName;
}

/** The request bodies Dredd took from the document's JSON examples, by method and path. */
const jsonBodies = new Map();

/** The served document, whose `required` lists replace those Dredd infers (see below). */
let servedDocument;

hooks.beforeAll((transactions, done) => {
  for (const transaction of transactions) {
    const { method, headers, body } = transaction.request;
    if (headers['Content-Type'] === 'application/json' && body) {
      jsonBodies.set(`${method} ${template(transaction)}`, body);
    }
  }
  fetch(process.env.CONTRACT_DOCUMENT_URL)
    .then((response) => response.json())
    .then((document) => {
      servedDocument = document;
      done();
    })
    .catch(done);
});

/** A schema of the document with its $ref (and a lone allOf around one) followed. */
function resolved(schema) {
  let current = schema;
  for (;;) {
    if (current && current.$ref) {
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce((node, key) => node[key], servedDocument);
    } else if (current && Array.isArray(current.allOf) && current.allOf.length === 1) {
      current = { ...current, ...current.allOf[0], allOf: undefined };
    } else {
      return current;
    }
  }
}

/** The object schema among a schema's alternatives (a nullable object is anyOf [object, null]). */
function objectSchema(schema) {
  const current = resolved(schema);
  if (!current) return undefined;
  if (current.properties || current.items) return current;
  for (const alternative of [...(current.anyOf ?? []), ...(current.oneOf ?? [])]) {
    const found = objectSchema(alternative);
    if (found) return found;
  }
  return undefined;
}

/**
 * Dredd's OpenAPI 3 adapter generates the expected body from the schema with every optional
 * property in it, and Dredd then expects each of them (apiaryio/dredd#1430). The generated body
 * keeps only what the document requires, so an answer may leave out what it says is optional.
 */
function keepRequired(value, documented) {
  const schema = objectSchema(documented);
  if (!schema || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) keepRequired(item, schema.items);
    return;
  }
  if (!schema.properties) return;
  const required = new Set(schema.required ?? []);
  for (const name of Object.keys(value)) {
    if (required.has(name)) keepRequired(value[name], schema.properties[name]);
    else delete value[name];
  }
}

hooks.beforeEach((transaction) => {
  // Only the 2xx answers: every other status needs a request this run does not make (a missing
  // key, an unknown slug, a full quota). The end-to-end tests check those bodies against the same
  // document, with Ajv.
  if (!/^2\d\d$/.test(String(transaction.expected.statusCode))) {
    transaction.skip = true;
    return;
  }
  const path = template(transaction);
  if (path.startsWith('/v1/admin/')) {
    transaction.request.headers.Authorization = `Bearer ${adminToken}`;
  } else if (path !== '/v1/api/openapi.json') {
    transaction.request.headers.Authorization = `Bearer ${apiKey}`;
  }
  // Dredd sends an example body only for JSON, text and XML media types. An NDJSON body is the
  // JSON array's records, one per line, as the document describes it.
  if (transaction.request.headers['Content-Type'] === 'application/x-ndjson') {
    const records = JSON.parse(jsonBodies.get(`${transaction.request.method} ${path}`));
    transaction.request.body = records.map((record) => JSON.stringify(record)).join('\n');
  }
  // The export answers the media type its format names, else the one Accept names: Dredd sends
  // format's first enum value to the transactions of both media types, so it is left out.
  if (path === '/v1/api/export/pricing') {
    const uri = transaction.request.uri.replace(/([?&])format=[^&]*&?/, '$1').replace(/[?&]$/, '');
    transaction.request.uri = uri;
    transaction.fullPath = uri;
  }
  const creator = CREATED_BY[path];
  if (creator) {
    const [creatorPath, field] = creator;
    const answer = created.get(creatorPath);
    if (!answer) {
      transaction.fail = `no id: ${creatorPath} created nothing earlier in the run`;
      return;
    }
    const id = encodeURIComponent(answer[field]);
    const uri = path.replace(/\{[^}]+\}/, id);
    transaction.request.uri = uri;
    transaction.fullPath = uri;
  }
});

hooks.beforeEachValidation((transaction) => {
  // The service writes `application/json; charset=utf-8`; Dredd compares the whole header with
  // the document's media type key, `application/json`. The media type is what is compared.
  const type = transaction.real.headers['content-type'];
  if (type) transaction.real.headers['content-type'] = type.split(';')[0].trim();
  const operation =
    servedDocument.paths[template(transaction)]?.[transaction.request.method.toLowerCase()];
  const media =
    operation?.responses[transaction.expected.statusCode]?.content?.[
      transaction.expected.headers['Content-Type']
    ];
  if (!media?.schema || !transaction.expected.body) return;
  const expected = JSON.parse(transaction.expected.body);
  keepRequired(expected, media.schema);
  transaction.expected.body = JSON.stringify(expected);
});

hooks.afterEach((transaction) => {
  if (transaction.request.method !== 'POST' || !transaction.real) return;
  if (!/^2\d\d$/.test(String(transaction.real.statusCode))) return;
  created.set(template(transaction), JSON.parse(transaction.real.body));
});
