import { generateKeyPairSync } from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

import { Server } from 'ssh2';
import type { Algorithms } from 'ssh2';
import { afterEach, describe, expect, it } from 'vitest';

import { passwordMethods, sshAuthMethods } from './ssh-auth.ts';

const rsaKey = (bits: number) =>
  generateKeyPairSync('rsa', {
    modulusLength: bits,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
const hostKey = rsaKey(2048);
const rsa2048 = { type: 'ssh-rsa', bits: 2048 };

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

/** An ssh2 server that answers every auth request with `offer`, or accepts "none" when offer is 'none'. */
async function sshServer(
  offer: string[] | 'none',
  algorithms?: Algorithms,
  keys = [hostKey],
): Promise<{ port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = new Server({ hostKeys: keys, algorithms }, (client) => {
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => {
      seen.push(ctx.method);
      if (offer === 'none') {
        ctx.accept();
      } else {
        ctx.reject(offer as never);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return { port: (server.address() as AddressInfo).port, seen };
}

describe('sshAuthMethods', () => {
  it('reads password and keyboard-interactive from the list, sending only "none"', async () => {
    const server = await sshServer(['publickey', 'password', 'keyboard-interactive']);
    const offer = await sshAuthMethods('127.0.0.1', server.port, 5000);
    expect(offer).toEqual({
      methods: ['publickey', 'password', 'keyboard-interactive'],
      noneAccepted: false,
      hostKey: rsa2048,
    });
    expect(passwordMethods(offer!)).toEqual(['password', 'keyboard-interactive']);
    expect(server.seen).toEqual(['none']);
  });

  it('reaches the auth step on a server that speaks only legacy algorithms', async () => {
    const server = await sshServer(['password'], {
      kex: ['diffie-hellman-group1-sha1'],
      cipher: ['3des-cbc'],
      hmac: ['hmac-md5'],
      serverHostKey: ['ssh-rsa'],
    });
    expect(await sshAuthMethods('127.0.0.1', server.port, 5000)).toEqual({
      methods: ['password'],
      noneAccepted: false,
      hostKey: rsa2048,
    });
  });

  it('reads the size of an RSA host key, preferring it to the ECDSA key of the same server', async () => {
    const ecdsa = generateKeyPairSync('ec', {
      namedCurve: 'prime256v1',
      privateKeyEncoding: { type: 'sec1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey;
    const server = await sshServer(['publickey'], undefined, [ecdsa, rsaKey(1024)]);
    const offer = await sshAuthMethods('127.0.0.1', server.port, 5000);
    expect(offer?.hostKey).toEqual({ type: 'ssh-rsa', bits: 1024 });
  });

  it('sees nothing to report on a key-only server', async () => {
    const server = await sshServer(['publickey']);
    const offer = await sshAuthMethods('127.0.0.1', server.port, 5000);
    expect(offer).toEqual({ methods: ['publickey'], noneAccepted: false, hostKey: rsa2048 });
    expect(passwordMethods(offer!)).toEqual([]);
  });

  it('notices a server that lets anyone in without authentication', async () => {
    const server = await sshServer('none');
    expect(await sshAuthMethods('127.0.0.1', server.port, 5000)).toEqual({
      methods: [],
      noneAccepted: true,
      hostKey: rsa2048,
    });
  });

  it('gives up within its time limit on a banner that never goes on to a key exchange', async () => {
    const silent = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.write('SSH-2.0-OpenSSH_9.2\r\n');
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(() => silent.close());
    const started = Date.now();
    const offer = await sshAuthMethods('127.0.0.1', (silent.address() as AddressInfo).port, 800);
    expect(offer).toBeNull();
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('returns null at once for a closed port, and when the scan is stopped', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await sshAuthMethods('127.0.0.1', port, 5000)).toBeNull();

    const server = await sshServer(['password']);
    const controller = new AbortController();
    controller.abort();
    expect(await sshAuthMethods('127.0.0.1', server.port, 5000, controller.signal)).toBeNull();
  });
});
