import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config.error.js';
import { loadConfig } from './load-config.js';

/** The ConfigError thrown by loadConfig for this environment. */
function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig defaults', () => {
  const config = loadConfig({});

  it('listens on port 3000', () => {
    expect(config.http.port).toBe(3000);
  });

  it('uses the embedded SQLite database ./data/pricing.db', () => {
    expect(config.database).toEqual({
      type: 'sqlite',
      path: './data/pricing.db',
      statementTimeoutMs: 5_000,
    });
  });

  it('uses Redis on 127.0.0.1:6379, not a cluster', () => {
    expect(config.redis.url).toBe('redis://127.0.0.1:6379');
    expect(config.redis.clusterNodes).toBeNull();
  });

  it('has no admin token and no demo data', () => {
    expect(config.adminToken).toBeNull();
    expect(config.demoData).toBe(false);
  });

  it('allows the four default scrapers', () => {
    expect(config.ingest.scrapers).toEqual(['scraper_1', 'scraper_2', 'scraper_3', 'scraper_4']);
  });

  it('has the three default plans, cheapest first', () => {
    expect(config.plans.map((plan) => plan.name)).toEqual(['free', 'pro', 'enterprise']);
    expect(config.plans.map((plan) => plan.requestsPerHour)).toEqual([100, 1_000, 10_000]);
    expect(config.plans.map((plan) => plan.creditsPerMonth)).toEqual([1_000, 10_000, 100_000]);
  });

  it('gives the default plans the features docs/API.md lists', () => {
    const [free, pro, enterprise] = config.plans;
    expect([...free!.features].sort()).toEqual(['companies', 'files', 'pages']);
    expect([...pro!.features].sort()).toEqual(['companies', 'files', 'pages', 'pricing']);
    expect(enterprise!.features).toEqual(
      expect.arrayContaining([...pro!.features, 'webhooks', 'export']),
    );
  });

  it('limits bursts to 20 requests a second and failed authentications to 30 a minute', () => {
    expect(config.limits).toEqual({
      burstPerSecond: 20,
      authFailuresPerMinute: 30,
      keyCacheMs: 30_000,
    });
  });

  it("serves a worker's metrics on 3001 and is ready up to 10,000 events of projection lag", () => {
    expect(config.observability).toEqual({ workerPort: 3001, readyMaxProjectionLag: 10_000 });
  });

  it('trusts no proxy and names counters after the queue prefix, without its hash tag', () => {
    expect(config.http.trustProxy).toBe(false);
    expect(config.redis.queuePrefix).toBe('{pricing}');
    expect(config.redis.keyNamespace).toBe('pricing');
  });
});

describe('loadConfig values', () => {
  it('reads the variables it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'sqlite:/tmp/other.db',
      REDIS_URL: 'redis://cache:6380',
      ADMIN_TOKEN: 'a-long-enough-admin-token',
      DEMO_DATA: 'true',
      SCRAPERS: 'alpha,beta',
      WORKER_CONCURRENCY: '3',
      INGEST_CHUNK_SIZE: '250',
      INGEST_REPLICA_WAIT_MS: '500',
      LOG_LEVEL: 'debug',
      QUEUE_PREFIX: '{staging}',
      BURST_LIMIT_PER_SECOND: '5',
      AUTH_FAILURES_PER_MINUTE: '10',
      API_KEY_CACHE_SECONDS: '0',
      TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
      WORKER_METRICS_PORT: '9101',
      READY_MAX_PROJECTION_LAG: '50',
    });
    expect(config.observability).toEqual({ workerPort: 9101, readyMaxProjectionLag: 50 });
    expect(config.http).toEqual({
      host: '0.0.0.0',
      port: 8080,
      trustProxy: '10.0.0.0/8,127.0.0.1',
    });
    expect(config.redis.keyNamespace).toBe('staging');
    expect(config.limits).toEqual({ burstPerSecond: 5, authFailuresPerMinute: 10, keyCacheMs: 0 });
    expect(config.database).toEqual({
      type: 'sqlite',
      path: '/tmp/other.db',
      statementTimeoutMs: 5_000,
    });
    expect(config.redis.url).toBe('redis://cache:6380');
    expect(config.adminToken).toBe('a-long-enough-admin-token');
    expect(config.demoData).toBe(true);
    expect(config.ingest.scrapers).toEqual(['alpha', 'beta']);
    expect(config.ingest).toMatchObject({ concurrency: 3, chunkSize: 250, replicaWaitMs: 500 });
    expect(config.logLevel).toBe('debug');
  });

  it('reads a postgres URL with the public schema by default', () => {
    const url = 'postgres://user:secret@db:5432/pricing';
    expect(loadConfig({ DATABASE_URL: url }).database).toEqual({
      type: 'postgres',
      url,
      schema: 'public',
      statementTimeoutMs: 5_000,
    });
  });

  it('reads a postgresql:// URL with a configured schema', () => {
    const url = 'postgresql://db/pricing';
    expect(loadConfig({ DATABASE_URL: url, DATABASE_SCHEMA: 'tenant_a' }).database).toEqual({
      type: 'postgres',
      url,
      schema: 'tenant_a',
      statementTimeoutMs: 5_000,
    });
  });

  it('reads DATABASE_STATEMENT_TIMEOUT_MS, and refuses one under 100 ms', () => {
    const database = loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '1500' }).database;
    expect(database.statementTimeoutMs).toBe(1_500);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '50' })).toThrow(
      /DATABASE_STATEMENT_TIMEOUT_MS/,
    );
  });

  it('reads EXPLORER_IMAGE_SOURCES (any https host by default), and refuses one that is not https', () => {
    expect(loadConfig({}).explorer.imageSources).toEqual(['https:']);
    expect(
      loadConfig({ EXPLORER_IMAGE_SOURCES: 'https://files.example.com,https://*.cdn.example' })
        .explorer.imageSources,
    ).toEqual(['https://files.example.com', 'https://*.cdn.example']);
    for (const refused of ['http://files.example.com', "https://a.example 'unsafe-inline'", '*']) {
      expect(() => loadConfig({ EXPLORER_IMAGE_SOURCES: refused })).toThrow(
        /EXPLORER_IMAGE_SOURCES/,
      );
    }
  });

  it('reads PostgreSQL read replicas, in the primary schema, 5,000 ms of lag allowed by default', () => {
    const database = loadConfig({
      DATABASE_URL: 'postgres://db/pricing',
      DATABASE_SCHEMA: 'tenant_a',
      DATABASE_READ_URLS: 'postgres://replica-1/pricing,postgresql://u:p@replica-2:5433/pricing',
    }).database;
    expect(database).toEqual({
      type: 'postgres',
      url: 'postgres://db/pricing',
      schema: 'tenant_a',
      statementTimeoutMs: 5_000,
      readReplicas: {
        urls: ['postgres://replica-1/pricing', 'postgresql://u:p@replica-2:5433/pricing'],
        maxLagMs: 5_000,
      },
    });
  });

  it('reads READ_REPLICA_MAX_LAG_MS', () => {
    const database = loadConfig({
      DATABASE_URL: 'postgres://db/pricing',
      DATABASE_READ_URLS: 'postgres://replica/pricing',
      READ_REPLICA_MAX_LAG_MS: '250',
    }).database;
    expect(database.type === 'postgres' && database.readReplicas?.maxLagMs).toBe(250);
  });

  it('has no read replicas unless DATABASE_READ_URLS names some', () => {
    const database = loadConfig({ DATABASE_URL: 'postgres://db/pricing' }).database;
    expect(database.type === 'postgres' && database.readReplicas).toBeUndefined();
  });

  it('refuses read replicas beside a SQLite database', () => {
    expect(configError({ DATABASE_READ_URLS: 'postgres://replica/pricing' }).message).toContain(
      'DATABASE_READ_URLS: read replicas need a postgres:// DATABASE_URL',
    );
  });

  it('refuses a read replica URL that is not postgres://, and a negative lag', () => {
    const message = configError({
      DATABASE_URL: 'postgres://db/pricing',
      DATABASE_READ_URLS: 'postgres://replica/pricing,mysql://other/pricing',
      READ_REPLICA_MAX_LAG_MS: '-1',
    }).message;
    expect(message).toContain('DATABASE_READ_URLS must be a comma-separated list of postgres://');
    expect(message).toContain('READ_REPLICA_MAX_LAG_MS');
  });

  it('counts an empty string as unset', () => {
    const config = loadConfig({
      PORT: '',
      DATABASE_URL: '',
      REDIS_URL: '',
      ADMIN_TOKEN: '',
      DEMO_DATA: '',
      PLANS_FILE: '',
      WORKER_CONCURRENCY: '',
    });
    expect(config.http.port).toBe(3000);
    expect(config.database).toEqual({
      type: 'sqlite',
      path: './data/pricing.db',
      statementTimeoutMs: 5_000,
    });
    expect(config.redis.url).toBe('redis://127.0.0.1:6379');
    expect(config.adminToken).toBeNull();
    expect(config.demoData).toBe(false);
    expect(config.plans.map((plan) => plan.name)).toEqual(['free', 'pro', 'enterprise']);
    expect(config.ingest).toMatchObject({ concurrency: 4, chunkSize: 500, replicaWaitMs: 2_000 });
  });

  it('reads TRUST_PROXY=true as trusting every proxy', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).http.trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).http.trustProxy).toBe(false);
  });

  it('ignores variables it does not know', () => {
    expect(loadConfig({ PATH: '/usr/bin', SOMETHING_ELSE: 'x' }).http.port).toBe(3000);
  });
});

describe('loadConfig demo data', () => {
  it('is off by default and on when the caller asks for it by default', () => {
    expect(loadConfig({}).demoData).toBe(false);
    expect(loadConfig({}, { demoDataByDefault: true }).demoData).toBe(true);
  });

  it('lets DEMO_DATA=false turn the standalone default off', () => {
    expect(loadConfig({ DEMO_DATA: 'false' }, { demoDataByDefault: true }).demoData).toBe(false);
  });

  it('lets DEMO_DATA=true turn it on without the default', () => {
    expect(loadConfig({ DEMO_DATA: 'true' }, { demoDataByDefault: false }).demoData).toBe(true);
  });
});

describe('loadConfig log level', () => {
  it('is log by default, the caller default when one is given, LOG_LEVEL above both', () => {
    expect(loadConfig({}).logLevel).toBe('log');
    expect(loadConfig({}, { logLevelByDefault: 'warn' }).logLevel).toBe('warn');
    expect(loadConfig({ LOG_LEVEL: 'debug' }, { logLevelByDefault: 'warn' }).logLevel).toBe(
      'debug',
    );
  });
});

describe('loadConfig refusals', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'sqlite:'],
    ['DATABASE_SCHEMA', 'Bad-Schema'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['REDIS_CLUSTER_NODES', 'redis://10.0.0.1:6379'],
    ['REDIS_CLUSTER_NODES', '10.0.0.1'],
    ['REDIS_CLUSTER_NODES', '10.0.0.1:0'],
    ['REDIS_CLUSTER_NODES', '10.0.0.1:65536'],
    ['REDIS_CLUSTER_NODES', '10.0.0.1:7000,,10.0.0.2:7000'],
    ['REDIS_CLUSTER_NODES', '10.0.0.1:7000 10.0.0.2:7000'],
    ['ADMIN_TOKEN', 'short'],
    ['DEMO_DATA', 'maybe'],
    ['DEMO_DATA', 'yes'],
    ['SCRAPERS', 'Scraper One'],
    // A record's scraper is at most 27 characters: a longer name could never be used.
    ['SCRAPERS', `scraper_1,${'s'.repeat(28)}`],
    ['WORKER_CONCURRENCY', '0'],
    ['WORKER_CONCURRENCY', 'many'],
    // A chunk holds at most a batch.
    ['INGEST_CHUNK_SIZE', '1001'],
    ['INGEST_CHUNK_SIZE', '0'],
    ['INGEST_REPLICA_WAIT_MS', '50'],
    ['LOG_LEVEL', 'loud'],
    ['BURST_LIMIT_PER_SECOND', '0'],
    ['BURST_LIMIT_PER_SECOND', '100001'],
    ['AUTH_FAILURES_PER_MINUTE', '1000001'],
    ['AUTH_FAILURES_PER_MINUTE', 'lots'],
    ['API_KEY_CACHE_SECONDS', '3601'],
    ['TRUST_PROXY', 'yes please'],
    ['WORKER_METRICS_PORT', '70000'],
    ['READY_MAX_PROJECTION_LAG', '-1'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.message).toContain(name);
  });

  it('names only the bad variable among good ones', () => {
    const error = configError({ PORT: '8080', WORKER_CONCURRENCY: '0' });
    expect(error.message).toContain('WORKER_CONCURRENCY');
    expect(error.message).not.toContain('PORT');
  });

  it('names every bad variable at once', () => {
    const error = configError({ PORT: 'abc', DEMO_DATA: 'maybe' });
    expect(error.message).toContain('PORT');
    expect(error.message).toContain('DEMO_DATA');
  });

  it('accepts an admin token of 16 characters', () => {
    expect(loadConfig({ ADMIN_TOKEN: 'x'.repeat(16) }).adminToken).toBe('x'.repeat(16));
    expect(configError({ ADMIN_TOKEN: 'x'.repeat(15) }).message).toContain('ADMIN_TOKEN');
  });
});

describe('loadConfig PLANS_FILE', () => {
  let dir: string;
  const write = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'plans-file-spec-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('replaces the default plans, in the order of the file', () => {
    const path = write(
      'plans.json',
      JSON.stringify({
        starter: { requests_per_hour: 50, credits_per_month: 500, features: ['companies'] },
        growth: {
          requests_per_hour: 500,
          credits_per_month: 5_000,
          features: ['companies', 'pages', 'files', 'pricing'],
        },
      }),
    );
    expect(loadConfig({ PLANS_FILE: path }).plans).toEqual([
      { name: 'starter', requestsPerHour: 50, creditsPerMonth: 500, features: ['companies'] },
      {
        name: 'growth',
        requestsPerHour: 500,
        creditsPerMonth: 5_000,
        features: ['companies', 'pages', 'files', 'pricing'],
      },
    ]);
  });

  it('takes export as a feature like the others', () => {
    const path = write(
      'export.json',
      JSON.stringify({
        warehouse: { requests_per_hour: 10, credits_per_month: 10, features: ['export'] },
      }),
    );
    expect(loadConfig({ PLANS_FILE: path }).plans[0]!.features).toEqual(['export']);
  });

  it('refuses a plan with an unknown feature, naming PLANS_FILE', () => {
    const path = write(
      'unknown-feature.json',
      JSON.stringify({
        basic: { requests_per_hour: 10, credits_per_month: 10, features: ['teleportation'] },
      }),
    );
    expect(configError({ PLANS_FILE: path }).message).toContain('PLANS_FILE');
  });

  it.each([
    ['a zero request limit', { p: { requests_per_hour: 0, credits_per_month: 1, features: [] } }],
    ['a fractional credit', { p: { requests_per_hour: 1, credits_per_month: 1.5, features: [] } }],
    ['a missing feature list', { p: { requests_per_hour: 1, credits_per_month: 1 } }],
    ['no plan at all', {}],
    ['an array instead of an object', []],
  ])('refuses a file with %s, naming PLANS_FILE', (_why, content) => {
    const path = write(`bad-${_why.replace(/\W+/g, '-')}.json`, JSON.stringify(content));
    expect(configError({ PLANS_FILE: path }).message).toContain('PLANS_FILE');
  });

  it('refuses a file that is not JSON, naming PLANS_FILE', () => {
    const path = write('broken.json', '{"free": ');
    expect(configError({ PLANS_FILE: path }).message).toContain('PLANS_FILE');
  });

  it('refuses a missing file, naming PLANS_FILE', () => {
    const error = configError({ PLANS_FILE: join(dir, 'does-not-exist.json') });
    expect(error.message).toContain('PLANS_FILE');
  });
});

describe('loadConfig REDIS_CLUSTER_NODES', () => {
  it('reads each node of the list as a host and a port', () => {
    const config = loadConfig({
      REDIS_CLUSTER_NODES: 'redis-a:7000,10.0.0.2:7001,redis-c.internal:65535',
    });
    expect(config.redis.clusterNodes).toEqual([
      { host: 'redis-a', port: 7000 },
      { host: '10.0.0.2', port: 7001 },
      { host: 'redis-c.internal', port: 65535 },
    ]);
    expect(config.redis.queuePrefix).toBe('{pricing}');
  });

  it('refuses it beside REDIS_URL, naming both', () => {
    const error = configError({
      REDIS_URL: 'redis://cache:6379',
      REDIS_CLUSTER_NODES: 'redis-a:7000',
    });
    expect(error.message).toContain('REDIS_URL, REDIS_CLUSTER_NODES: set one of them, not both');
  });

  it('takes it beside an empty REDIS_URL, which counts as unset', () => {
    const config = loadConfig({ REDIS_URL: '', REDIS_CLUSTER_NODES: 'redis-a:7000' });
    expect(config.redis.clusterNodes).toEqual([{ host: 'redis-a', port: 7000 }]);
  });

  it('refuses a QUEUE_PREFIX without a hash tag on a cluster, and takes it on one server', () => {
    const error = configError({ REDIS_CLUSTER_NODES: 'redis-a:7000', QUEUE_PREFIX: 'pricing' });
    expect(error.message).toContain('QUEUE_PREFIX: must hold a hash tag');
    expect(loadConfig({ QUEUE_PREFIX: 'pricing' }).redis.queuePrefix).toBe('pricing');
    const tagged = loadConfig({ REDIS_CLUSTER_NODES: 'redis-a:7000', QUEUE_PREFIX: 'app:{q}' });
    expect(tagged.redis.queuePrefix).toBe('app:{q}');
  });
});
