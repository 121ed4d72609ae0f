import { describe, expect, it } from 'vitest';
import { webhookUrlProblem, type HostResolver } from './webhook-url.js';

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

  it('refuses a host with one private address among public ones (rebinding by round robin), naming the rule and not the address', async () => {
    const resolve = resolving(['93.184.215.14', '10.0.0.7']);
    const problem = await webhookUrlProblem('https://hooks.example.com/x', {
      allowPrivate: false,
      resolve,
    });
    expect(problem).toBe("url's host hooks.example.com must resolve only to public addresses");
  });

  // URL parsing rewrites a host before anything checks it: the message names the host the URL
  // gave as parsed, which is also the address a connection would use.
  it.each([
    ['https://[::127.0.0.1]/x', '::7f00:1'],
    ['https://[::169.254.169.254]/x', '::a9fe:a9fe'],
    ['https://[::10.0.0.1]/x', '::a00:1'],
    ['https://[::0:0:127.0.0.1]/x', '::7f00:1'],
    ['https://[::93.184.215.14]/x', '::5db8:d70e'],
    ['https://[::ffff:127.0.0.1]/x', '::ffff:7f00:1'],
    ['https://[0:0:0:0:0:FFFF:169.254.169.254]/x', '::ffff:a9fe:a9fe'],
    ['https://[::ffff:0:10.0.0.1]/x', '::ffff:0:a00:1'],
    ['https://[64:ff9b::127.0.0.1]/x', '64:ff9b::7f00:1'],
    ['https://[64:ff9b::169.254.169.254]/x', '64:ff9b::a9fe:a9fe'],
    ['https://[64:ff9b:1::10.0.0.1]/x', '64:ff9b:1::a00:1'],
    ['https://[2002:7f00:0001::]/x', '2002:7f00:1::'],
    ['https://[2002:a9fe:a9fe::1]/x', '2002:a9fe:a9fe::1'],
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['https://[0:0:0:0:0:0:0:1]/x', '::1'],
    ['https://[::]/x', '::'],
    ['https://[fe80::1]/x', 'fe80::1'],
    ['https://[fd00:ec2::254]/x', 'fd00:ec2::254'],
    ['https://127.1/x', '127.0.0.1'],
    ['https://0177.0.0.1/x', '127.0.0.1'],
    ['https://2130706433/x', '127.0.0.1'],
    ['https://0x7f.0.0.1/x', '127.0.0.1'],
    ['https://127.0.0.1./x', '127.0.0.1'],
    ['https://%31%32%37.0.0.1/x', '127.0.0.1'],
    ['https://0/x', '0.0.0.0'],
    ['https://169.254.169.254:443/x', '169.254.169.254'],
    ['https://100.100.100.200/x', '100.100.100.200'],
  ])('refuses %s: its address %s is not public', async (url, address) => {
    const resolve: HostResolver = () => Promise.reject(new Error('an IP literal is not resolved'));
    expect(await webhookUrlProblem(url, { allowPrivate: false, resolve })).toBe(
      `url's host ${address} must be a public address`,
    );
  });

  it.each([
    ['::7f00:1'],
    ['::ffff:7f00:1'],
    ['64:ff9b::a9fe:a9fe'],
    ['2002:a00:1::'],
    ['127.0.0.1'],
    ['::1'],
  ])('refuses a host that resolves to %s, and never says so', async (address) => {
    const resolve = resolving(['93.184.215.14', address]);
    const problem = await webhookUrlProblem('https://hooks.example.com/x', {
      allowPrivate: false,
      resolve,
    });
    expect(problem).toBe("url's host hooks.example.com must resolve only to public addresses");
    expect(problem).not.toContain(address);
  });

  it.each([
    'https://[::ffff:93.184.215.14]/x',
    'https://[64:ff9b::93.184.215.14]/x',
    'https://[2606:4700:4700::1111]/x',
    'https://93.184.215.14/x',
  ])('takes %s, which reaches a public address', async (url) => {
    expect(await webhookUrlProblem(url, { allowPrivate: false })).toBeNull();
  });

  it('refuses a host that does not resolve as one that resolves to a private address', async () => {
    // Told apart, the two would let a caller find which internal names exist.
    const nowhere: HostResolver = () => Promise.reject(new Error('ENOTFOUND'));
    const nothing: HostResolver = () => Promise.resolve([]);
    const internal = resolving(['10.0.0.7']);
    const problems = await Promise.all(
      [nowhere, nothing, internal].map((resolve) =>
        webhookUrlProblem('https://vm.example/x', { allowPrivate: false, resolve }),
      ),
    );
    expect(new Set(problems)).toEqual(
      new Set(["url's host vm.example must resolve only to public addresses"]),
    );
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
