import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from '#app/client';
import { WEBHOOK_QUEUE } from '#app/contracts';
import { PricingChangeReader } from '#app/persistence';
import type { WebhookJobData, WebhookJobResult } from '#app/webhooks';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestAndProject } from './support/catalogue-fixture.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';
import { Receiver, type Delivery } from './support/webhook-receiver.js';

/**
 * Webhooks: registration, listing and deletion, and deliveries to a real receiver on loopback
 * that checks every signature and fails for a while before it takes them.
 */

const environment = testEnvironment();
let api: TestApp;
let key: string;

interface DeliveryBody {
  id: string;
  type: string;
  webhook_id: string;
  changes: { slug: string; to_version: string; event_type: string }[];
}

/** The receiver's check, written from the analysts' guide's description rather than the signing code. */
function signatureIsValid(secret: string, delivery: Delivery): boolean {
  const header = String(delivery.headers['x-signature'] ?? '');
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const [, timestamp, mac] = match;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${delivery.body}`).digest();
  return timingSafeEqual(expected, Buffer.from(mac!, 'hex'));
}

const brief = (change: DeliveryBody['changes'][number]) => [
  change.slug,
  change.to_version,
  change.event_type,
];

type WebhookBody = components['schemas']['CreatedWebhook'];

/** A valid registration, typed by the document. */
async function register(body: components['schemas']['RegisterWebhookRequest'], apiKey = key) {
  const { data, error, response } = await api.client(apiKey).POST('/v1/api/webhooks', { body });
  return { status: response.status, headers: response.headers, body: data!, error };
}

/** Raw: a registration the document refuses (a bad URL, an unknown field...). */
const registerRaw = (body: unknown) =>
  api.request('/api/webhooks', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function remove(id: string, apiKey = key) {
  const { error, response } = await api.client(apiKey).DELETE('/v1/api/webhooks/{id}', {
    params: { path: { id } },
  });
  return { status: response.status, headers: response.headers, error };
}

async function list(apiKey = key) {
  const { data, response } = await api.client(apiKey).GET('/v1/api/webhooks');
  return { status: response.status, headers: response.headers, body: data! };
}

beforeAll(async () => {
  api = await startTestApp(
    environment.config({
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_BACKOFF_MS: '100',
      WEBHOOK_ATTEMPTS: '8',
    }),
  );
  key = await api.createKey(['read'], 'enterprise');
  await ingestAndProject(api, [
    records.company('alpha.io'),
    records.company('beta.io'),
    records.page('alpha.io'),
    records.page('beta.io'),
  ]);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('webhook registration', () => {
  it('registers with a secret shown once, lists without it, deletes, and charges a credit each', async () => {
    const created = await register({
      url: 'https://hooks.example.com/pricing?token=abc',
      event_types: ['price_increased', 'price_increased', 'plan_added'],
      companies: ['alpha.io'],
    });
    expect(created.status).toBe(201);
    const credits = Number(created.headers.get('x-credits-remaining'));
    const webhook = created.body;
    expect(webhook).toMatchObject({
      url: 'https://hooks.example.com/pricing?token=abc',
      event_types: ['price_increased', 'plan_added'],
      companies: ['alpha.io'],
    });
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const listed = await list();
    expect(listed.status).toBe(200);
    expect(Number(listed.headers.get('x-credits-remaining'))).toBe(credits - 1);
    const { secret: _secret, ...shown } = webhook;
    expect(listed.body.webhooks).toContainEqual(shown);
    expect(JSON.stringify(listed.body)).not.toContain(webhook.secret);

    // Another key neither sees nor deletes it.
    const other = await api.createKey(['read'], 'enterprise');
    expect((await list(other)).body.webhooks).toEqual([]);
    expect((await remove(webhook.id, other)).status).toBe(404);

    const deleted = await remove(webhook.id);
    expect(deleted.status).toBe(204);
    expect(Number(deleted.headers.get('x-credits-remaining'))).toBe(credits - 2);
    expect((await list()).body.webhooks.map((each) => each.id)).not.toContain(webhook.id);
    const again = await remove(webhook.id);
    expect(again.status).toBe(404);
    expect(again.error).toEqual({
      error: 'Not Found',
      message: `No webhook ${webhook.id}`,
      details: { id: webhook.id },
    });
  });

  it('registers the filters of how much a change matters, categories as companies spell them, null when not given', async () => {
    const created = await register({
      url: 'https://hooks.example.com/filtered',
      categories: ['communication', 'FINANCE', 'Communication'],
      min_significance: 'moderate',
      min_change_percent: 7.5,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      event_types: null,
      companies: null,
      categories: ['Communication', 'Finance'],
      min_significance: 'moderate',
      min_change_percent: 7.5,
    });
    const plain = await register({ url: 'https://hooks.example.com/plain' });
    expect(plain.body).toMatchObject({
      categories: null,
      min_significance: null,
      min_change_percent: null,
    });
    const { secret: _secret, ...shown } = created.body;
    expect((await list()).body.webhooks).toContainEqual(shown);
    for (const id of [created.body.id, plain.body.id]) await remove(id);
  });

  it('needs the webhooks feature: 403 naming the enterprise plan for a pro key', async () => {
    const pro = await api.createKey(['read'], 'pro');
    const response = await register({ url: 'https://hooks.example.com/x' }, pro);
    expect(response.status).toBe(403);
    expect(response.error).toMatchObject({
      error: 'Forbidden',
      details: { required_plan: 'enterprise', current_plan: 'pro' },
    });
    expect((await list(pro)).status).toBe(403);
  });

  it('refuses a bad body with 400 naming each field, and charges nothing', async () => {
    const bad = [
      { url: 'not a url' },
      { url: 'ftp://hooks.example.com/x' },
      { url: 'https://user:password@hooks.example.com/x' },
      { url: 'https://hooks.example.com/x', event_types: ['price_up'] },
      { url: 'https://hooks.example.com/x', companies: ['Not A Slug'] },
      { url: 'https://hooks.example.com/x', extra: true },
      { url: `https://hooks.example.com/${'x'.repeat(2048)}` },
      { url: 'https://hooks.example.com/x', categories: ['Gardening'] },
      { url: 'https://hooks.example.com/x', categories: [] },
      { url: 'https://hooks.example.com/x', categories: 'Finance' },
      { url: 'https://hooks.example.com/x', categories: Array(9).fill('HR') },
      { url: 'https://hooks.example.com/x', min_significance: 'high' },
      { url: 'https://hooks.example.com/x', min_significance: 'MAJOR' },
      { url: 'https://hooks.example.com/x', min_change_percent: 0 },
      { url: 'https://hooks.example.com/x', min_change_percent: -5 },
      { url: 'https://hooks.example.com/x', min_change_percent: '10' },
    ];
    const before = (await list()).headers.get('x-credits-remaining');
    for (const body of bad) {
      const response = await registerRaw(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = (await response.json()) as {
        error: string;
        message: string;
        details?: { errors?: { field: string }[] };
      };
      expect(error.error).toBe('Bad Request');
      const [field] = Object.keys(body).filter((name) => name !== 'url');
      if (field && field !== 'extra') {
        expect(
          error.details?.errors?.map((each) => each.field),
          JSON.stringify(body),
        ).toEqual([field]);
      }
    }
    const after = await list();
    expect(Number(after.headers.get('x-credits-remaining'))).toBe(Number(before) - 1);
  });

  it('holds at most 20 webhooks per key', async () => {
    const own = await api.createKey(['read'], 'enterprise');
    const ids: string[] = [];
    for (let index = 0; index < 20; index += 1) {
      const created = await register({ url: `https://hooks.example.com/${index}` }, own);
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const refused = await register({ url: 'https://hooks.example.com/21' }, own);
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ details: { limit: 20 } });
    // Gone before the deliveries below: each would wait out WEBHOOK_TIMEOUT_MS on a host that
    // does not answer, and hold up the worker's deliveries.
    for (const id of ids) await remove(id, own);
  });

  it('holds at most 20 even when 25 registrations arrive together', async () => {
    const own = await api.createKey(['read'], 'enterprise');
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, index) =>
        register({ url: `https://hooks.example.com/together/${index}` }, own),
      ),
    );
    const created: string[] = [];
    for (const answer of answers) {
      if (answer.status === 201) created.push(answer.body.id);
      else expect([answer.status, answer.error?.details]).toEqual([400, { limit: 20 }]);
    }
    expect(created).toHaveLength(20);
    for (const id of created) await remove(id, own);
  });
});

describe('without WEBHOOK_ALLOW_PRIVATE_URLS', () => {
  const strictEnvironment = testEnvironment();
  let strict: TestApp;
  let strictKey: string;

  beforeAll(async () => {
    strict = await startTestApp(strictEnvironment.config(), { withWorker: false });
    strictKey = await strict.createKey(['read'], 'enterprise');
  });

  afterAll(async () => {
    await strict?.close();
    await strictEnvironment.cleanup();
  });

  const registerStrict = (url: string) =>
    strict.request('/api/webhooks', {
      method: 'POST',
      headers: { authorization: `Bearer ${strictKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });

  it('refuses http and every address that is not public, naming the rule, and takes a public https one', async () => {
    const refused: Record<string, string> = {
      'http://93.184.215.14/hook': 'url must be https',
      'https://127.0.0.1/hook': "url's host 127.0.0.1 must be a public address",
      'https://10.1.2.3/hook': "url's host 10.1.2.3 must be a public address",
      'https://169.254.169.254/latest/meta-data':
        "url's host 169.254.169.254 must be a public address",
      'https://[::1]/hook': "url's host ::1 must be a public address",
      'https://[::ffff:192.168.0.1]/hook': "url's host ::ffff:c0a8:1 must be a public address",
      'https://0x7f000001/hook': "url's host 127.0.0.1 must be a public address",
    };
    for (const [url, message] of Object.entries(refused)) {
      const response = await registerStrict(url);
      expect(response.status, url).toBe(400);
      expect(await response.json(), url).toEqual({
        error: 'Bad Request',
        message,
        details: { parameter: 'url', provided: url },
      });
    }
    expect((await registerStrict('https://93.184.215.14/hook')).status).toBe(201);
  });

  it('names the rule a host broke, never the address it resolved to: https://localhost/hook', async () => {
    const response = await registerStrict('https://localhost/hook');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { message: string };
    expect(body).toEqual({
      error: 'Bad Request',
      message: "url's host localhost must resolve only to public addresses",
      details: { parameter: 'url', provided: 'https://localhost/hook' },
    });
    expect(body.message).not.toMatch(/127\.0\.0\.1|::1/);
  });

  it('refuses every IPv6 form that carries a non-public IPv4 address, as the URL parser spells it', async () => {
    const refused: Record<string, string> = {
      'https://[::127.0.0.1]/x': '::7f00:1',
      'https://[::169.254.169.254]/latest/meta-data': '::a9fe:a9fe',
      'https://[::10.0.0.1]/x': '::a00:1',
      'https://[::ffff:127.0.0.1]/x': '::ffff:7f00:1',
      'https://[::ffff:0:169.254.169.254]/x': '::ffff:0:a9fe:a9fe',
      'https://[64:ff9b::10.0.0.1]/x': '64:ff9b::a00:1',
      'https://[64:ff9b:1::127.0.0.1]/x': '64:ff9b:1::7f00:1',
      'https://[2002:a9fe:a9fe::]/x': '2002:a9fe:a9fe::',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x': '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    };
    for (const [url, address] of Object.entries(refused)) {
      const response = await registerStrict(url);
      expect(response.status, url).toBe(400);
      expect(await response.json(), url).toEqual({
        error: 'Bad Request',
        message: `url's host ${address} must be a public address`,
        details: { parameter: 'url', provided: url },
      });
    }
  });
});

describe('deliveries', () => {
  // 3 answers of 503, then a connection cut: four failed attempts before the first success.
  const receiver = new Receiver(4);
  let base: string;
  let all: WebhookBody;
  let priceOnly: WebhookBody;

  beforeAll(async () => {
    base = await receiver.start();
    // An extraction recorded before the webhooks exist: never delivered.
    await ingestAndProject(api, [
      records.scrape('alpha.io', '', '20250105'),
      records.pricing('alpha.io', '', '20250105', 10),
    ]);
    all = (await register({ url: `${base}/all` })).body;
    priceOnly = (await register({ url: `${base}/prices`, event_types: ['price_increased'] })).body;
    const deleted = (await register({ url: `${base}/deleted` })).body;
    expect((await remove(deleted.id)).status).toBe(204);

    await ingestAndProject(api, [
      records.scrape('beta.io', '', '20250110'),
      records.pricing('beta.io', '', '20250110', 20),
    ]);
    await ingestAndProject(api, [
      records.scrape('alpha.io', '', '20250201'),
      records.pricing('alpha.io', '', '20250201', 12),
    ]);
    await waitFor('both extractions delivered to every webhook', async () =>
      receiver.taken('/all').length >= 2 && receiver.taken('/prices').length >= 1
        ? true
        : undefined,
    );
  });

  afterAll(() => receiver.close());

  it('delivers each extraction recorded after registration, with its changes as the feed shows them', async () => {
    const bodies = receiver
      .taken('/all')
      .map((delivery) => JSON.parse(delivery.body) as DeliveryBody);
    expect(new Set(bodies.map((body) => body.id)).size).toBe(2);
    // Retries can reorder deliveries: each names its page and versions.
    const first = bodies.find((body) => body.changes[0]?.slug === 'beta');
    const second = bodies.find((body) => body.changes[0]?.slug === 'alpha');
    expect(first!.changes.map(brief)).toEqual([['beta', '20250110', 'plan_added']]);
    expect(second!.changes.map(brief)).toEqual([
      ['alpha', '20250201', 'price_increased'],
      ['alpha', '20250201', 'charge_changed'],
    ]);
    expect(first).toMatchObject({ type: 'pricing.changes', webhook_id: all.id });

    // The same changes, field for field, as the change feed lists them.
    const feed = await api.client(key).GET('/v1/api/changes');
    expect(feed.data!.changes.slice(-3)).toEqual([...first!.changes, ...second!.changes]);
  });

  it('signs every delivery with its own secret and a fresh timestamp', () => {
    for (const delivery of receiver.deliveries) {
      const secret = delivery.path === '/all' ? all.secret : priceOnly.secret;
      expect(signatureIsValid(secret, delivery), delivery.path).toBe(true);
      const other = delivery.path === '/all' ? priceOnly.secret : all.secret;
      expect(signatureIsValid(other, delivery)).toBe(false);
      const body = JSON.parse(delivery.body) as DeliveryBody;
      expect(delivery.headers['x-delivery-id']).toBe(body.id);
      expect(delivery.headers['x-webhook-id']).toBe(body.webhook_id);
      expect(delivery.headers['content-type']).toBe('application/json');
    }
    const tampered = { ...receiver.taken('/all')[0]! };
    tampered.body = tampered.body.replace('"type":"pricing.changes"', '"type":"pricing.change"');
    expect(tampered.body).not.toBe(receiver.taken('/all')[0]!.body);
    expect(signatureIsValid(all.secret, tampered)).toBe(false);
  });

  it('retries through the receiver failing, with the same delivery id and a growing attempt', () => {
    const failed = receiver.deliveries.filter((delivery) => delivery.answered !== 204);
    expect(failed).toHaveLength(4);
    for (const failure of failed) {
      const id = failure.headers['x-delivery-id'];
      const later = receiver.deliveries.filter(
        (delivery) =>
          delivery.headers['x-delivery-id'] === id &&
          Number(delivery.headers['x-delivery-attempt']) >
            Number(failure.headers['x-delivery-attempt']),
      );
      expect(later.length, `a later attempt of ${String(id)}`).toBeGreaterThan(0);
    }
  });

  it('sends only the asked-for event types, and nothing to a deleted webhook', () => {
    const prices = receiver
      .taken('/prices')
      .map((delivery) => JSON.parse(delivery.body) as DeliveryBody);
    expect(new Set(prices.map((body) => body.id)).size).toBe(1);
    expect(prices[0]!.changes.map((change) => change.event_type)).toEqual(['price_increased']);
    expect(receiver.deliveries.filter((delivery) => delivery.path === '/deleted')).toEqual([]);
  });

  it('lets the dispatcher read the feed a few whole extractions at a time', async () => {
    const reader = api.app.get(PricingChangeReader);
    const start = { transactionId: '0', seq: 0 };
    const all = await reader.extractionsAfter(start, 100);
    const extraction = (row: (typeof all)[number]) => `${row.eventTransactionId}.${row.eventSeq}`;
    const positions = [...new Set(all.map(extraction))];
    expect(positions).toHaveLength(3);
    const firstTwo = await reader.extractionsAfter(start, 2);
    expect(firstTwo).toEqual(all.filter((row) => positions.slice(0, 2).includes(extraction(row))));
    const [first] = firstTwo;
    const rest = await reader.extractionsAfter(
      { transactionId: first!.eventTransactionId, seq: Number(first!.eventSeq) },
      1,
    );
    expect(new Set(rest.map(extraction))).toEqual(new Set([positions[1]]));
  });

  it('shows the deliveries in the queue dashboard', async () => {
    const response = await fetch(`${api.baseUrl}/admin/queues/api/queues`, {
      headers: { authorization: `Bearer ${api.config.adminToken}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      queues: { name: string; counts: Record<string, number> }[];
    };
    const webhooks = body.queues.find((queue) => queue.name === 'webhooks');
    expect(webhooks?.counts.completed).toBeGreaterThanOrEqual(3);
  });
});

describe('a webhook deleted while its delivery is being retried', () => {
  // Fails every attempt: only the deletion can end the delivery before its attempts run out.
  const receiver = new Receiver(Number.POSITIVE_INFINITY);
  let queue: Queue<WebhookJobData, WebhookJobResult>;

  beforeAll(async () => {
    queue = new Queue(WEBHOOK_QUEUE, {
      connection: { url: api.config.redis.url },
      prefix: api.config.redis.queuePrefix,
    });
  });

  afterAll(async () => {
    await queue?.close();
    await receiver.close();
  });

  it('drops the delivery at its next attempt, sending nothing more', async () => {
    const base = await receiver.start();
    const doomed = (await register({ url: `${base}/doomed` })).body;
    await ingestAndProject(api, [
      records.scrape('beta.io', '', '20250301'),
      records.pricing('beta.io', '', '20250301', 25),
    ]);
    await waitFor('a failed attempt', async () =>
      receiver.deliveries.length > 0 ? true : undefined,
    );
    const sentBeforeDeletion = receiver.deliveries.length;
    expect((await remove(doomed.id)).status).toBe(204);

    // Still failing, the job would retry until its attempts ran out and end failed.
    const job = await waitFor('the delivery to end', async () => {
      const completed = await queue.getJobs(['completed']);
      return completed.find((each) => each.data.webhookId === doomed.id);
    });
    expect(job.returnvalue).toEqual({ outcome: 'webhook_deleted' });
    // At most the attempt already under way when the webhook was deleted.
    expect(receiver.deliveries.length).toBeLessThanOrEqual(sentBeforeDeletion + 1);
  });
});

describe('deliveries filtered by category, significance and size', () => {
  const receiver = new Receiver(0);
  let queue: Queue<WebhookJobData, WebhookJobResult>;
  const webhooks = new Map<string, WebhookBody>();

  /** What each webhook was sent: per delivery, its changes as [slug, to_version, event_type]. */
  const sent = (path: string) =>
    receiver
      .taken(path)
      .map((delivery) => (JSON.parse(delivery.body) as DeliveryBody).changes.map(brief))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

  beforeAll(async () => {
    queue = new Queue(WEBHOOK_QUEUE, {
      connection: { url: api.config.redis.url },
      prefix: api.config.redis.queuePrefix,
    });
    // Only this block's webhooks from here on (a deleted one's retries end at their next try).
    for (const { id } of (await list()).body.webhooks) await remove(id);
    await ingestAndProject(api, [
      records.company('fin.io', { category: 'Finance' }),
      records.page('fin.io'),
      records.scrape('fin.io', '', '20250105'),
      records.scrape('fin.io', '', '20250201'),
      records.scrape('alpha.io', '', '20250401'),
      records.scrape('beta.io', '', '20250401'),
    ]);
    const base = await receiver.start();
    const filters: Record<string, Omit<components['schemas']['RegisterWebhookRequest'], 'url'>> = {
      '/major': { min_significance: 'major' },
      '/big': { min_change_percent: 15 },
      '/finance': { categories: ['finance'] },
      '/combined': {
        event_types: ['price_increased', 'price_decreased'],
        categories: ['PRODUCTIVITY'],
        min_significance: 'moderate',
        min_change_percent: 15,
      },
      '/quiet': { companies: ['fin.io'], min_significance: 'moderate' },
    };
    for (const [path, filter] of Object.entries(filters)) {
      const created = await register({ url: `${base}${path}`, ...filter });
      expect(created.status, path).toBe(201);
      webhooks.set(path, created.body);
    }
    // fin.io (Finance) arrives (a plan added, major); alpha's price +8.33 % (moderate); beta's
    // +60 % (major); then fin's +2 % (minor); each price change with its display (minor).
    await ingestAndProject(api, [records.pricing('fin.io', '', '20250105', 10)]);
    await ingestAndProject(api, [records.pricing('alpha.io', '', '20250401', 13)]);
    await ingestAndProject(api, [records.pricing('beta.io', '', '20250401', 40)]);
    await ingestAndProject(api, [records.pricing('fin.io', '', '20250201', 10.2)]);
    // Every delivery of these webhooks queued and sent: the dispatcher is past fin's last
    // extraction (/big takes one of each) and none of their jobs is left.
    const ids = new Set([...webhooks.values()].map((webhook) => webhook.id));
    await waitFor('every filtered delivery sent', async () => {
      if (receiver.taken('/big').length < 4) return undefined;
      const pending = await queue.getJobs(['waiting', 'active', 'delayed', 'prioritized']);
      return pending.some((job) => ids.has(job.data.webhookId)) ? undefined : true;
    });
  });

  afterAll(async () => {
    await queue?.close();
    await receiver.close();
  });

  it('min_significance: only the changes of that level or more', () => {
    expect(sent('/major')).toEqual([
      [['beta', '20250401', 'price_increased']],
      [['fin', '20250105', 'plan_added']],
    ]);
  });

  it('min_change_percent: price changes at least that large, and every change that is not one', () => {
    expect(sent('/big')).toEqual([
      [['alpha', '20250401', 'charge_changed']],
      [
        ['beta', '20250401', 'price_increased'],
        ['beta', '20250401', 'charge_changed'],
      ],
      [['fin', '20250105', 'plan_added']],
      [['fin', '20250201', 'charge_changed']],
    ]);
  });

  it("categories, in any case: only the changes of those categories' companies", () => {
    expect(sent('/finance')).toEqual([
      [['fin', '20250105', 'plan_added']],
      [
        ['fin', '20250201', 'price_increased'],
        ['fin', '20250201', 'charge_changed'],
      ],
    ]);
  });

  it('combines every filter, and sends nothing for an extraction none of whose changes pass', () => {
    // alpha's +8.33 % is moderate but under 15 %; beta's +60 % passes all four.
    expect(sent('/combined')).toEqual([[['beta', '20250401', 'price_increased']]]);
    // fin's second extraction has only minor changes: no delivery at all, not an empty one.
    expect(sent('/quiet')).toEqual([[['fin', '20250105', 'plan_added']]]);
  });

  it('delivers each change as the feed shows it, weighed', async () => {
    const [delivery] = receiver.taken('/combined');
    const [change] = (JSON.parse(delivery!.body) as { changes: Record<string, unknown>[] }).changes;
    expect(change).toMatchObject({
      old_monthly_equivalent: 25,
      new_monthly_equivalent: 40,
      change_percent: 60,
      significance: 'major',
    });
    const feed = await api.client(key).GET('/v1/api/changes', {
      params: { query: { company: 'beta.io', event_type: 'price_increased' } },
    });
    expect(feed.data!.changes.at(-1)).toEqual(change);
  });
});
