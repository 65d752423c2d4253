// Proof of cipher findings by completed handshakes, against Node's own TLS servers configured weak in
// different ways, and a liar that never completes one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readClientHello, serverHello } from '../../../tests/fixtures/hostile/listeners.ts';
import { makeTestPki, weakDhParams, type TestPki } from '../../../tests/fixtures/tls/tls-certs.ts';
import { describeProof, proveByHandshake } from './tls-proof.ts';

const servers: net.Server[] = [];
let pki: TestPki;
let credentials: { key: Buffer; cert: Buffer };
beforeAll(() => {
  pki = makeTestPki();
  const leaf = pki.issue('proof', { san: 'IP:127.0.0.1', key: 'rsa:2048', digest: 'sha256' });
  credentials = { key: readFileSync(leaf.key), cert: readFileSync(leaf.chain) };
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  pki.remove();
});

async function tlsServer(options: tls.TlsOptions): Promise<number> {
  const server = tls.createServer({ ...credentials, ...options });
  server.on('tlsClientError', () => undefined);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const at = (port: number) => ({ address: '127.0.0.1', port, timeoutMs: 3000 });

describe('proof by a completed handshake', () => {
  it('completes TLS 1.0, CBC and RSA key exchange handshakes with a server that allows them', async () => {
    const port = await tlsServer({ minVersion: 'TLSv1', ciphers: 'AES128-SHA:@SECLEVEL=0' });
    const legacy = await proveByHandshake('tls.legacy-protocol', at(port));
    expect(describeProof(legacy)).toBe('handshake completed (TLS 1.1, TLS_RSA_WITH_AES_128_CBC_SHA)');
    expect(describeProof(await proveByHandshake('tls.cbc-tls10', at(port)))).toBe(
      'handshake completed (TLS 1.0, TLS_RSA_WITH_AES_128_CBC_SHA)',
    );
    expect((await proveByHandshake('tls.no-forward-secrecy', at(port))).completed).toBe(true);
  });

  it('reads the size of the DH group it completed with', async () => {
    const dhe = { ciphers: 'DHE-RSA-AES128-GCM-SHA256:@SECLEVEL=0', maxVersion: 'TLSv1.2' } as const;
    const weak = await tlsServer({
      ...dhe,
      dhparam: readFileSync(weakDhParams(path.join(pki.dir, 'dh1024.pem'))),
    });
    expect(describeProof(await proveByHandshake('tls.weak-dh', at(weak)))).toBe(
      'handshake completed (TLS 1.2, TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, 1024-bit DH group)',
    );
    const port = await tlsServer({ ...dhe, dhparam: 'auto' });
    const proof = await proveByHandshake('tls.weak-dh', at(port));
    // OpenSSL's automatic group matches the key: 2048 bits, which proves no weak group.
    expect(describeProof(proof)).toBe(
      'ServerHello only, no handshake completed (it completed with TLS_DHE_RSA_WITH_AES_128_GCM_SHA256 and a 2048-bit DH group, which does not show it)',
    );
  });

  it('says why no handshake completed: a refusal, suites the library lacks, SSLv3, a liar that never finishes', async () => {
    const strong = await tlsServer({ minVersion: 'TLSv1.2' });
    expect(describeProof(await proveByHandshake('tls.legacy-protocol', at(strong)))).toMatch(
      /^ServerHello only, no handshake completed \(it failed \(alert: /,
    );
    expect(describeProof(await proveByHandshake('tls.rc4', at(strong)))).toBe(
      "ServerHello only, no handshake completed (the scanner's TLS library cannot negotiate these suites)",
    );
    expect((await proveByHandshake('tls.sslv3', at(strong))).completed).toBe(false);
    const liar = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', (data: Buffer) => {
        const hello = readClientHello(data);
        if (hello) {
          socket.write(serverHello(0x0303, hello.suites[0]!));
        }
      });
    });
    servers.push(liar);
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    const lied = await proveByHandshake('tls.null-cipher', at((liar.address() as AddressInfo).port));
    expect(lied.completed).toBe(false);
  });
});
