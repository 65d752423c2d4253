import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HttpClient } from './core/http-client.ts';
import { TargetPolicy, TargetRefusedError, isRestrictedAddress } from './target-policy.ts';

const fakeDns = (table: Record<string, string[]>) => (host: string) =>
  Promise.resolve((table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

describe('isRestrictedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '::ffff:169.254.169.254',
    'ff02::1',
  ])('restricts %s', (address) => {
    expect(isRestrictedAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(isRestrictedAddress(address)).toBe(false);
    },
  );
});

describe('TargetPolicy', () => {
  const dnsTable = {
    'public.example': ['93.184.216.34'],
    'internal.example': ['10.0.0.5'],
    'metadata.example': ['169.254.169.254'],
    'loop6.example': ['::1'],
    'rebind.example': ['93.184.216.34', '127.0.0.1'],
  };
  const hosted = new TargetPolicy('hosted', fakeDns(dnsTable));
  const local = new TargetPolicy('local', fakeDns(dnsTable));

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '169.254.169.254',
    '[::1]',
    '::1',
    'fc00::7',
    'internal.example',
    'metadata.example',
    'loop6.example',
    'rebind.example',
  ])('hosted mode refuses %s', async (host) => {
    await expect(hosted.resolve(host)).rejects.toBeInstanceOf(TargetRefusedError);
  });

  it('hosted mode allows public names and pins the resolved address', async () => {
    await expect(hosted.resolve('public.example')).resolves.toEqual({
      host: 'public.example',
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('local mode allows loopback and private addresses', async () => {
    await expect(local.resolve('127.0.0.1')).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(local.resolve('internal.example')).resolves.toMatchObject({ address: '10.0.0.5' });
  });

  it('refuses names that do not resolve and non-http schemes', async () => {
    await expect(local.resolve('nowhere.example')).rejects.toBeInstanceOf(TargetRefusedError);
    await expect(local.assertUrl(new URL('file:///etc/passwd'))).rejects.toBeInstanceOf(TargetRefusedError);
  });
});

describe('HttpClient under the hosted policy', () => {
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.writeHead(302, {
        location:
          req.url === '/to-metadata'
            ? 'http://169.254.169.254/latest/meta-data/'
            : `http://127.0.0.1:${port}/`,
      });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.close();
  });

  it('never connects to a loopback target in hosted mode', async () => {
    const client = new HttpClient({ policy: new TargetPolicy('hosted') });
    await expect(client.request(`http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(TargetRefusedError);
    expect(client.requests).toBe(0);
  });

  it('refuses a redirect that leads to a private address', async () => {
    // A public-looking name that resolves to a public address is allowed; its redirect to metadata is not.
    // The first hop is loopback in reality, so run it under a policy that treats only that name as public.
    const policy = new TargetPolicy('hosted', fakeDns({ 'shop.example': ['93.184.216.34'] }));
    const client = new HttpClient({ policy });
    const lookupFor = policy.resolve.bind(policy);
    policy.resolve = async (host) => {
      const resolved = await lookupFor(host);
      // Pin the public name to the local fixture so the first hop is answered by our server.
      return host === 'shop.example' ? { ...resolved, address: '127.0.0.1' } : resolved;
    };
    await expect(
      client.request(`http://shop.example:${port}/to-metadata`, { followRedirects: 'any' }),
    ).rejects.toBeInstanceOf(TargetRefusedError);
    expect(client.requests).toBe(1);
  });
});
