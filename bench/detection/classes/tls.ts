// TLS: our raw-ClientHello survey and certificate checks beside testssl.sh and sslscan, on nginx (OpenSSL 3)
// and gnutls-serv configured badly in different ways and a hardened nginx that must stay silent
// (tests/fixtures/tls/tls-servers.ts). Each tool's output is mapped to our rule ids by the functions below;
// only what a tool itself flags counts (testssl.sh: a severity above OK/INFO; sslscan: what it colours as
// weak), never our reading of its raw cipher list.
import { tlsFindings } from '../../../agents/scanners/core/tls-check.ts';
import { runScan } from '../../../agents/scanners/run-scan.ts';
import type { RunningFixture } from '../../../tests/fixtures/planted.ts';
import {
  startGnutlsWeak,
  startNginxHardenedTls,
  startNginxWeakTls,
  testPki,
  tlsPorts,
} from '../../../tests/fixtures/tls/tls-servers.ts';
import { round } from '../../lib/report.ts';
import { sslscan, testssl } from '../tls-tools.ts';
import type { DetectionFixture } from '../types.ts';

// The hardened fixture's root is trusted as a customer's internal CA: through the setting (read before any
// scan of this process), and through --add-ca for testssl.sh.
process.env.VIGIL_SCAN_TLS_CA_FILE = testPki().rootFile;

const tlsFixture = (name: string, port: number, start: () => Promise<RunningFixture>): DetectionFixture => ({
  name,
  classOf: (issue) => (issue.rule_id === 'infra.open-port' ? 'ports' : 'tls'),
  start,
  async scan(f) {
    const result = await runScan('infrastructure', { target: f.target, mode: 'local', ports: String(port) });
    // The scan's time includes nmap's version detection; the TLS checks of the endpoint, alone:
    const started = performance.now();
    await tlsFindings({ host: f.target, address: f.target, family: 4 }, port, `${f.target}:${port}`);
    return { ...result, detail: `TLS checks alone ${round((performance.now() - started) / 1000, 2)} s` };
  },
  tools: [testssl(port, () => testPki().rootFile), sslscan(port)],
});

export const fixtures: DetectionFixture[] = [
  tlsFixture(
    'nginx 1.22/OpenSSL 3 TLS: TLS 1.0, NULL and anonymous suites, 1024-bit RSA key and DH group, SHA-1, unknown CA',
    tlsPorts.nginxWeak,
    startNginxWeakTls,
  ),
  tlsFixture(
    'gnutls-serv 3.7 TLS: 3DES, RC4, NULL, CBC only, no forward secrecy, expired MD5 cert for another host, no intermediate',
    tlsPorts.gnutlsWeak,
    startGnutlsWeak,
  ),
  tlsFixture(
    'nginx 1.22/OpenSSL 3 TLS hardened: 1.2/1.3, ECDHE+AEAD, full chain, OCSP stapled (silent)',
    tlsPorts.nginxHardened,
    startNginxHardenedTls,
  ),
];
