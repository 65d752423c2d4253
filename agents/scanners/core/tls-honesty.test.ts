// Whether ServerHellos can be believed: against a liar that picks the first suite offered, and a real
// TLS server (Node's OpenSSL) configured weak, which must not be taken for one.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTestPki, type TestPki } from '../../../tests/fixtures/tls/tls-certs.ts';
import { readClientHello, serverHello } from '../../../tests/fixtures/hostile/listeners.ts';
import { ALL_GROUPS } from './tls-hello.ts';
import { impossibleChoice, NON_SUITES, serverHelloLie } from './tls-honesty.ts';
import { surveyTls, type TlsSurvey } from './tls-survey.ts';

const servers: net.Server[] = [];
let pki: TestPki;
beforeAll(() => {
  pki = makeTestPki();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  pki.remove();
});

async function serve(server: net.Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const probe = (port: number) => ({ address: '127.0.0.1', port, timeoutMs: 2000 });

describe('ServerHello honesty', () => {
  it('offers as non-suites the sixteen GREASE values and the two signalling codes', () => {
    expect(NON_SUITES.map((c) => c.toString(16))).toEqual([
      ...'0123456789abcdef'.split('').map((d) => `${d === '0' ? '' : d}a${d}a`),
      'ff',
      '5600',
    ]);
  });

  it('sees a suite chosen at a version where it cannot exist', () => {
    const survey = (version: 'TLSv1.0' | 'TLSv1.2', suites: number[]): TlsSurvey => ({
      versions: [{ version, suites, complete: true, groups: ALL_GROUPS }],
      serverOrder: null,
      dhBits: null,
      certificates: [],
      stapled: false,
    });
    expect(impossibleChoice(survey('TLSv1.0', [0x002f, 0x009c]))).toBe(
      'its TLSv1.0 ServerHello chose TLS_RSA_WITH_AES_128_GCM_SHA256, which exists only from TLS 1.2 on',
    );
    expect(impossibleChoice(survey('TLSv1.0', [0x002f, 0xc013]))).toBeNull();
    expect(impossibleChoice(survey('TLSv1.2', [0x009c, 0x003c]))).toBeNull();
  });

  it('catches a server that picks the first suite of any hello, and believes a real one however weak', async () => {
    const liar = await serve(
      net.createServer((socket) => {
        socket.on('error', () => undefined);
        socket.once('data', (data: Buffer) => {
          const hello = readClientHello(data);
          if (hello) {
            socket.write(serverHello(Math.min(hello.version, 0x0303), hello.suites[0]!));
          }
        });
      }),
    );
    const lying = await surveyTls(probe(liar));
    expect(await serverHelloLie(lying, probe(liar))).toMatch(
      /chose a cipher suite that does not exist \(0x0a0a\) in its \w+ ServerHello/,
    );
    const leaf = pki.issue('honest', { san: 'IP:127.0.0.1', key: 'rsa:2048', digest: 'sha256' });
    const honest = await serve(
      tls.createServer({
        key: readFileSync(leaf.key),
        cert: readFileSync(leaf.chain),
        minVersion: 'TLSv1',
        ciphers: 'ALL:@SECLEVEL=0',
      }),
    );
    const weak = await surveyTls(probe(honest));
    expect(weak.versions.find((v) => v.version === 'TLSv1.0')?.suites.length).toBeGreaterThan(0);
    expect(await serverHelloLie(weak, probe(honest))).toBeNull();
  });
});
