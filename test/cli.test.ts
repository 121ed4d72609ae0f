import { AccessRedis, RequestMeter } from '#app/access';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, said } from './support/cli-process.js';
import { testEnvironment } from './support/test-environment.js';

// The command-line tool without a worker; test/cli-with-worker.test.ts runs the rest.
const environment = testEnvironment();
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(environment.env, args, env);

interface CreatedKey {
  id: string;
  key: string;
  name: string;
  plan: string;
  scopes: string[];
}

/** keys:create prints the created key as JSON (possibly after other lines). */
function createdKeyOf(stdout: string): CreatedKey {
  const start = stdout.indexOf('{');
  const end = stdout.lastIndexOf('}');
  expect(start, stdout).toBeGreaterThanOrEqual(0);
  return JSON.parse(stdout.slice(start, end + 1)) as CreatedKey;
}

/** The keys:list line that names this id. */
function listedLine(stdout: string, id: string): string {
  const line = stdout.split('\n').find((candidate) => candidate.includes(id));
  expect(line, `no line for ${id} in:\n${stdout}`).toBeDefined();
  return line as string;
}

afterAll(async () => {
  await environment.cleanup();
});

describe('the command-line tool', () => {
  it('migrate applies the schema and is idempotent', async () => {
    const first = await cli(['migrate']);
    expect(first.code, said(first)).toBe(0);
    expect(first.stdout).toMatch(/migrations applied/);
    const second = await cli(['migrate']);
    expect(second.code, said(second)).toBe(0);
    expect(second.stdout).toMatch(/migrations applied/);
  });

  it('keys:create prints the key once; keys:list shows it without the secret; keys:revoke revokes', async () => {
    const created = await cli([
      'keys:create',
      '--name',
      'ci',
      '--plan',
      'pro',
      '--scopes',
      'read,ingest',
    ]);
    expect(created.code, said(created)).toBe(0);
    const key = createdKeyOf(created.stdout);
    expect(key).toMatchObject({ name: 'ci', plan: 'pro', scopes: ['read', 'ingest'] });
    expect(key.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(key.key).toBeTypeOf('string');
    expect(key.key.length).toBeGreaterThanOrEqual(22);

    const listed = await cli(['keys:list']);
    expect(listed.code, said(listed)).toBe(0);
    const line = listedLine(listed.stdout, key.id);
    expect(line).toContain('ci');
    expect(line).toContain('pro');
    expect(line).toContain('active');
    expect(listed.stdout).not.toContain(key.key);
    expect(listed.stderr).not.toContain(key.key);

    const revoked = await cli(['keys:revoke', key.id]);
    expect(revoked.code, said(revoked)).toBe(0);
    expect(revoked.stdout).toContain(key.id);

    const after = await cli(['keys:list']);
    expect(after.code, said(after)).toBe(0);
    expect(listedLine(after.stdout, key.id)).toContain('revoked');
    expect(after.stdout).not.toContain(key.key);
  });

  it('keys:create defaults the scopes to read', async () => {
    const created = await cli(['keys:create', '--name', 'reader', '--plan', 'free']);
    expect(created.code, said(created)).toBe(0);
    expect(createdKeyOf(created.stdout)).toMatchObject({ name: 'reader', scopes: ['read'] });
  });

  it('keys:create refuses an unknown plan, naming the plan problem, and creates nothing', async () => {
    const before = await cli(['keys:list']);
    const refused = await cli(['keys:create', '--name', 'bad', '--plan', 'nope']);
    expect(refused.code, said(refused)).not.toBe(0);
    expect(refused.code).not.toBeNull();
    expect(refused.stderr).toMatch(/plan/);
    expect(refused.stderr).toMatch(/free, pro, enterprise/);
    expect(refused.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    const after = await cli(['keys:list']);
    expect(after.stdout.split('\n').length).toBe(before.stdout.split('\n').length);
    expect(after.stdout).not.toMatch(/\bbad\b/);
  });

  it('keys:create refuses an unknown scope and a past expiry', async () => {
    const scope = await cli([
      'keys:create',
      '--name',
      'x',
      '--plan',
      'free',
      '--scopes',
      'read,admin',
    ]);
    expect(scope.code, said(scope)).not.toBe(0);
    expect(scope.stderr).toMatch(/scopes/);
    const past = await cli([
      'keys:create',
      '--name',
      'x',
      '--plan',
      'free',
      '--expires-at',
      '2020-01-01T00:00:00Z',
    ]);
    expect(past.code, said(past)).not.toBe(0);
    expect(past.stderr).toMatch(/expires_at/);
  });

  it('keys:create without --name is refused by the argument parser', async () => {
    const result = await cli(['keys:create', '--plan', 'free']);
    expect(result.code, said(result)).not.toBe(0);
    expect(result.stderr).toMatch(/--name/);
  });

  it('keys:revoke of an unknown id exits non-zero', async () => {
    const result = await cli(['keys:revoke', '00000000-0000-4000-8000-000000000000']);
    expect(result.code, said(result)).not.toBe(0);
    expect(result.stderr).toMatch(/00000000-0000-4000-8000-000000000000/);
  });

  it('an unknown command exits non-zero', async () => {
    const result = await cli(['keys:rotate']);
    expect(result.code, said(result)).not.toBe(0);
  });

  it('a bad environment value stops it with a message naming the variable', async () => {
    const result = await cli(['keys:list'], { PORT: 'abc' });
    expect(result.code, said(result)).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stderr).toMatch(/PORT/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('needs only the database: it works with Redis unreachable', async () => {
    const started = Date.now();
    const result = await cli(['keys:list'], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(result.code, said(result)).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('keys:usage shows the counters a key has used, read without counting', async () => {
    const key = createdKeyOf(
      (await cli(['keys:create', '--name', 'metered', '--plan', 'free'])).stdout,
    );
    const config = environment.config();
    const redis = new AccessRedis(config);
    try {
      const meter = new RequestMeter(redis, config);
      const plan = config.planNamed('free')!;
      for (let count = 0; count < 3; count += 1) await meter.meter(key.id, plan, 'charge');
      const shown = await cli(['keys:usage', key.id]);
      expect(shown.code, said(shown)).toBe(0);
      expect(shown.stdout).toMatch(/hourly\s*│\s*3\s*│\s*100\s*│/);
      expect(shown.stdout).toMatch(/credits\s*│\s*3\s*│\s*1000\s*│/);
      expect((await meter.read(key.id, 'free')).hourly.used).toBe(3);
    } finally {
      await redis.onApplicationShutdown();
    }
    expect((await cli(['keys:usage', '00000000-0000-4000-8000-000000000000'])).code).not.toBe(0);
  });

  it('keys:revoke revokes with Redis unreachable, warning that API processes were not told', async () => {
    const key = createdKeyOf(
      (await cli(['keys:create', '--name', 'offline', '--plan', 'free'])).stdout,
    );
    const revoked = await cli(['keys:revoke', key.id], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(revoked.code, said(revoked)).toBe(0);
    expect(revoked.stdout + revoked.stderr).toMatch(/could not be told/);
    expect(listedLine((await cli(['keys:list'])).stdout, key.id)).toContain('revoked');
  });

  it('rebuild replays the (empty) log and exits 0', async () => {
    const result = await cli(['rebuild']);
    expect(result.code, said(result)).toBe(0);
    expect(result.stdout).toMatch(/rebuilt: 0 events applied/);
  });
});
