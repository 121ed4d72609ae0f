import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { AccessRedis, ApiKeysService, RequestMeter, creditMonth } from '#app/access';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METER_SCRIPT } from '../libs/access/src/metering/scripts.js';
import { getJson } from './support/catalogue-fixture.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/**
 * A TCP proxy between the API and the real Redis that can lose the answer to a metering script:
 * once armed, the connection that sends METER_SCRIPT is cut when Redis answers it (so Redis has
 * counted the request and the API never learns it), and from then on every connection is cut at
 * once (Redis is away) until `disarm`.
 */
class LossyRedisProxy {
  private readonly server = createServer((client) => this.forward(client));
  private readonly open = new Set<Socket>();
  private armed = false;
  private away = false;

  constructor(private readonly redisPort: number) {}

  async listen(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `redis://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  armOnce(): void {
    this.armed = true;
  }

  disarm(): void {
    this.away = false;
  }

  async close(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    this.server.close();
    await once(this.server, 'close');
  }

  private forward(client: Socket): void {
    if (this.away) {
      client.destroy();
      return;
    }
    const redis = connect(this.redisPort, '127.0.0.1');
    let loseNextReply = false;
    for (const [socket, peer] of [
      [client, redis],
      [redis, client],
    ] as const) {
      this.open.add(socket);
      socket.on('error', () => peer.destroy());
      socket.on('close', () => {
        this.open.delete(socket);
        peer.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      if (this.armed && chunk.includes(METER_SCRIPT.sha)) {
        this.armed = false;
        loseNextReply = true;
      }
      redis.write(chunk);
    });
    redis.on('data', (chunk: Buffer) => {
      if (!loseNextReply) {
        client.write(chunk);
        return;
      }
      this.away = true;
      client.destroy();
    });
  }
}

const environment = testEnvironment();
const direct = environment.config();
const proxy = new LossyRedisProxy(Number(new URL(direct.redis.url).port || 6379));
let api: TestApp;
// The key's counters and charge records as Redis holds them, read past the proxy.
const redis = new AccessRedis(direct);
const meter = new RequestMeter(redis, direct);

beforeAll(async () => {
  const proxyUrl = await proxy.listen();
  api = await startTestApp(environment.config({ REDIS_URL: proxyUrl }), { withWorker: false });
});

afterAll(async () => {
  await api?.close();
  await proxy.close();
  await redis.onApplicationShutdown();
  await environment.cleanup();
});

describe('a charge whose answer Redis sent but the API never received', () => {
  it('answers 503 and is given back once Redis is reachable again, exactly once', async () => {
    const { id, key, plan } = await api.app
      .get(ApiKeysService)
      .create({ name: 'lost-reply', plan: 'enterprise', scopes: ['read'] });
    const counters = async () => {
      const { hourly, credits } = await meter.read(id, plan);
      return { hourly: hourly.used, credits: credits.used };
    };
    const chargeRecords = async () => {
      const prefix = redis.meterKey(id, 'charge:');
      const keys = await redis.connection.keys(`${prefix}*`);
      return keys.map((name) => name.slice(prefix.length));
    };
    const companies = () => getJson(api, '/api/companies', key);

    expect((await companies()).status).toBe(200);
    expect(await counters()).toEqual({ hourly: 1, credits: 1 });
    const [answered] = await chargeRecords();

    proxy.armOnce();
    expect((await companies()).status).toBe(503);
    // Redis did count it: the API answered 503 without knowing.
    expect(await counters()).toEqual({ hourly: 2, credits: 2 });
    const recordsOfBoth = await chargeRecords();
    // Redis stays away a while: this request is refused before reaching it, and the lost
    // charge waits to be given back.
    expect((await companies()).status).toBe(503);

    proxy.disarm();
    await waitFor('the lost charge to be given back', async () =>
      (await counters()).credits === 1 ? true : undefined,
    );
    expect(await counters()).toEqual({ hourly: 1, credits: 1 });
    // Its record went with it; the answered charge's stays.
    expect(await chargeRecords()).toEqual([answered]);
    const lostCharge = recordsOfBoth.find((chargeId) => chargeId !== answered);
    expect(lostCharge).toBeDefined();

    // Giving it back again gives nothing.
    const again = await meter.refund({
      apiKeyId: id,
      plan: direct.planNamed(plan)!,
      creditMonth: creditMonth(new Date()),
      chargeId: lostCharge!,
    });
    expect(again.credits.used).toBe(1);
    expect(again.hourly.used).toBe(1);

    // The next request is counted as any other: the connection that lost an answer is not left
    // waiting for it.
    expect((await companies()).status).toBe(200);
    expect(await counters()).toEqual({ hourly: 2, credits: 2 });
  });
});
