// The TLS checks on real servers from Debian (tests/fixtures/tls/tls-servers.ts): nginx on OpenSSL 3 and
// gnutls-serv configured badly in different ways, and a hardened nginx that must raise nothing. One
// infrastructure scan finds all three TLS ports (none on a standard port) and checks each the same way.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { findingSchema, type Finding } from '../../shared/findings.ts';
import { tlsFindings } from '../../agents/scanners/core/tls-check.ts';
import { runScan } from '../../agents/scanners/run-scan.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import {
  startGnutlsWeak,
  startNginxHardenedTls,
  startNginxWeakTls,
  testPki,
  tlsBinaries,
  tlsPorts,
} from '../fixtures/tls/tls-servers.ts';
import { debianFile } from '../fixtures/debian-packages.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

// The hardened server's chain ends at the fixtures' own root: the scanner is told to trust it the way a
// customer trusts an internal CA, through the setting, never by changing the machine's store.
process.env.VIGIL_SCAN_TLS_CA_FILE = testPki().rootFile;

describe('TLS checks on real servers', requires(...Object.values(tlsBinaries).map(debianFile)), () => {
  const fixtures: RunningFixture[] = [];
  let findings: Finding[] = [];
  beforeAll(async () => {
    fixtures.push(await startNginxWeakTls(), await startGnutlsWeak(), await startNginxHardenedTls());
    const result = await runScan('infrastructure', {
      target: '127.0.0.1',
      mode: 'local',
      ports: `${tlsPorts.nginxWeak}-${tlsPorts.nginxHardened}`,
    });
    findings = result.findings;
  });
  afterAll(async () => {
    await Promise.all(fixtures.map((f) => f.close()));
  });

  const at = (port: number) => findings.filter((f) => f.location === `127.0.0.1:${port}`);
  const evidence = (port: number, rule: string) => at(port).find((f) => f.rule_id === rule)?.evidence ?? '';

  it('finds every planted weakness on each server and nothing else; the hardened one stays silent', () => {
    for (const fixture of fixtures) {
      const m = measure(at(Number(fixture.planted[0]!.location.slice(1))), fixture.planted, '127.0.0.1');
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
    }
    expect(at(tlsPorts.nginxHardened).map((f) => f.rule_id)).toEqual(['infra.open-port']);
    // Each finding carries what every finding must (CVSS, CWE, OWASP, remediation, compliance controls).
    findings.forEach((finding) => findingSchema.parse(finding));
  });

  it('names what it saw: suites, group and key sizes, signature algorithms, the missing issuer', () => {
    const nginx = tlsPorts.nginxWeak;
    expect(evidence(nginx, 'tls.anonymous-cipher')).toMatch(/TLS_DH_anon_WITH_AES_128_CBC_SHA/);
    expect(evidence(nginx, 'tls.null-cipher')).toMatch(/TLS_RSA_WITH_NULL_SHA/);
    expect(evidence(nginx, 'tls.weak-dh')).toMatch(/1024-bit prime/);
    expect(evidence(nginx, 'tls.weak-key')).toMatch(/RSA 1024-bit/);
    expect(evidence(nginx, 'tls.weak-signature')).toMatch(/sha1WithRSAEncryption/);
    expect(evidence(nginx, 'tls.untrusted-chain')).toMatch(/Acme Internal CA/);
    const gnutls = tlsPorts.gnutlsWeak;
    expect(evidence(gnutls, 'tls.block64-cipher')).toMatch(/TLS_RSA_WITH_3DES_EDE_CBC_SHA/);
    expect(evidence(gnutls, 'tls.rc4')).toMatch(/TLS_RSA_WITH_RC4_128_SHA/);
    expect(evidence(gnutls, 'tls.weak-signature')).toMatch(/md5WithRSAEncryption/);
    expect(evidence(gnutls, 'tls.cert-expired')).toMatch(/2025-03-01/);
    expect(evidence(gnutls, 'tls.untrusted-chain')).toMatch(/Vigil Fixture Issuing CA .*not sent/);
    expect(evidence(gnutls, 'tls.hostname-mismatch')).toMatch(/DNS:shop\.example/);
  });
});

describe('a server that speaks only TLS 1.3 (certificates encrypted: read through Node’s TLS)', () => {
  it('judges its chain, key and name like any other, and finds nothing wrong with a good one', async () => {
    const leaf = testPki().issue('tls13-only', { san: 'IP:127.0.0.1', key: 'ec', digest: 'sha256' });
    const server = tls.createServer({
      cert: readFileSync(leaf.chain),
      key: readFileSync(leaf.key),
      minVersion: 'TLSv1.3',
    });
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const target = { host: '127.0.0.1', address: '127.0.0.1', family: 4 as const };
      expect(await tlsFindings(target, port, `127.0.0.1:${port}`)).toEqual([]);
      // The same server for another name: the certificate was read, so the mismatch is seen.
      const named = await tlsFindings({ ...target, host: 'shop.example' }, port, 'x');
      expect(named.map((f) => f.rule_id)).toEqual(['tls.hostname-mismatch']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
