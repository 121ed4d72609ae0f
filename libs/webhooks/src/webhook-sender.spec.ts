import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryFailed, sendWebhook } from './webhook-sender.js';

describe('sendWebhook', () => {
  let server: Server;
  let port: number;
  const statuses: number[] = [];
  let received = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      received += 1;
      request.resume();
      response.writeHead(statuses.shift() ?? 204).end();
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

  const send = (url: string, allowPrivate: boolean) =>
    sendWebhook({ url, body: '{}', headers: {}, timeoutMs: 2_000, allowPrivate });

  it('resolves with a 2xx status and rejects any other, redirects included', async () => {
    statuses.push(200, 302, 500);
    expect(await send(`http://127.0.0.1:${port}/`, true)).toBe(200);
    await expect(send(`http://127.0.0.1:${port}/`, true)).rejects.toThrow('answered 302');
    await expect(send(`http://127.0.0.1:${port}/`, true)).rejects.toThrow('answered 500');
  });

  it('never connects to a private address unless allowed, whether named or literal', async () => {
    const before = received;
    await expect(send(`http://127.0.0.1:${port}/`, false)).rejects.toBeInstanceOf(DeliveryFailed);
    // IPv6 spellings that carry the loopback address: compatible, mapped, NAT64.
    for (const literal of ['::7f00:1', '::ffff:7f00:1', '64:ff9b::7f00:1']) {
      await expect(send(`http://[${literal}]:${port}/`, false)).rejects.toThrow(
        new DeliveryFailed(`host ${literal} must be a public address`),
      );
    }
    // A name is checked at connection time, on the addresses the connection would use.
    await expect(send(`http://localhost:${port}/`, false)).rejects.toThrow(
      new DeliveryFailed('host localhost must resolve only to public addresses'),
    );
    expect(received).toBe(before);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((ready) => silent.listen(0, '127.0.0.1', ready));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    await expect(
      sendWebhook({ url, body: '{}', headers: {}, timeoutMs: 200, allowPrivate: true }),
    ).rejects.toThrow('no answer within 200 ms');
    silent.closeAllConnections();
    await new Promise<void>((closed) => silent.close(() => closed()));
  });
});
