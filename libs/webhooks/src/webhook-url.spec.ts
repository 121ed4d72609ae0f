import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './public-address.js';
import { webhookUrlProblem, type HostResolver } from './webhook-url.js';

describe('isPublicAddress', () => {
  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.215.14'])(
    'takes %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it.each([
    '127.0.0.1',
    '10.0.0.7',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fc00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '2002:7f00:1::1',
    '64:ff9b::a00:1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('webhookUrlProblem', () => {
  const resolving =
    (addresses: string[]): HostResolver =>
    () =>
      Promise.resolve(addresses);

  it('takes an https URL whose host resolves only to public addresses', async () => {
    const resolve = resolving(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    expect(
      await webhookUrlProblem('https://hooks.example.com/x', { allowPrivate: false, resolve }),
    ).toBeNull();
  });

  it('refuses a host with one private address among public ones (rebinding by round robin)', async () => {
    const resolve = resolving(['93.184.215.14', '10.0.0.7']);
    expect(
      await webhookUrlProblem('https://hooks.example.com/x', { allowPrivate: false, resolve }),
    ).toBe("url's host hooks.example.com resolves to 10.0.0.7, which is not a public address");
  });

  it('refuses a host that does not resolve', async () => {
    const resolve: HostResolver = () => Promise.reject(new Error('ENOTFOUND'));
    expect(
      await webhookUrlProblem('https://nowhere.example/x', { allowPrivate: false, resolve }),
    ).toBe("url's host nowhere.example does not resolve");
  });

  it('lifts the https and public-address rules with allowPrivate, never the others', async () => {
    const resolve = resolving(['127.0.0.1']);
    const allowed = { allowPrivate: true, resolve };
    expect(await webhookUrlProblem('http://localhost:8080/x', allowed)).toBeNull();
    expect(await webhookUrlProblem('ftp://localhost/x', allowed)).toBe('url must be http or https');
    expect(await webhookUrlProblem('https://a:b@localhost/x', allowed)).toBe(
      'url must not hold a user name or password',
    );
    expect(await webhookUrlProblem('/relative', allowed)).toBe('url is not an absolute URL');
  });
});
