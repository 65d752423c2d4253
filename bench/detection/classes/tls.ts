// TLS: our raw-ClientHello survey and certificate checks beside testssl.sh and sslscan, on nginx (OpenSSL 3)
// and gnutls-serv configured badly in different ways and a hardened nginx that must stay silent
// (tests/fixtures/tls/tls-servers.ts). Each tool's output is mapped to our rule ids by the functions below;
// only what a tool itself flags counts (testssl.sh: a severity above OK/INFO; sslscan: what it colours as
// weak), never our reading of its raw cipher list.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { tlsFindings } from '../../../agents/scanners/core/tls-check.ts';
import { runScan } from '../../../agents/scanners/run-scan.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import {
  startGnutlsWeak,
  startNginxHardenedTls,
  startNginxWeakTls,
  testPki,
  tlsPorts,
} from '../../../tests/fixtures/tls/tls-servers.ts';
import { round } from '../../lib/report.ts';
import {
  sslscanRules,
  sslscanToolOnly,
  testsslRules,
  testsslToolOnly,
  type TestsslItem,
} from '../tls-parsers.ts';
import { runTool } from '../tool-process.ts';
import type { DetectionFixture, ReferenceTool, ToolRun } from '../types.ts';

// The hardened fixture's root is trusted as a customer's internal CA: through the setting (read before any
// scan of this process), and through --add-ca for testssl.sh.
process.env.VIGIL_SCAN_TLS_CA_FILE = testPki().rootFile;

/** Planted issues it reported and what it reported that the fixture does not have. */
function toolRun(
  rules: Map<string, string>,
  toolOnly: string[],
  fixture: RunningFixture,
  port: number,
  ms: number,
): ToolRun {
  const planted = new Set(fixture.planted.map((p) => p.rule_id));
  const found: PlantedIssue[] = [...rules.keys()].map((rule_id) => ({ rule_id, location: `:${port}` }));
  const falsePositives = [...rules]
    .filter(([rule]) => !planted.has(rule))
    .map(([rule, why]) => `${rule} (${why})`);
  return { found, falsePositives, toolOnly, ms };
}

const TESTSSL_COVERS = new Set([
  ...['tls.sslv3', 'tls.legacy-protocol', 'tls.null-cipher', 'tls.anonymous-cipher', 'tls.export-cipher'],
  ...['tls.rc4', 'tls.block64-cipher', 'tls.cbc-tls10', 'tls.no-forward-secrecy', 'tls.no-server-order'],
  ...['tls.weak-dh', 'tls.weak-key', 'tls.weak-signature', 'tls.hostname-mismatch', 'tls.self-signed'],
  ...[
    'tls.untrusted-chain',
    'tls.cert-expired',
    'tls.cert-expiring',
    'tls.no-ocsp-stapling',
    'tls.no-revocation-info',
    'tls.chain-order',
  ],
]);
const SSLSCAN_COVERS = new Set([
  ...['tls.sslv3', 'tls.legacy-protocol', 'tls.null-cipher', 'tls.anonymous-cipher', 'tls.export-cipher'],
  ...[
    'tls.rc4',
    'tls.block64-cipher',
    'tls.weak-dh',
    'tls.weak-key',
    'tls.weak-signature',
    'tls.cert-expired',
  ],
  'tls.self-signed',
]);

function testssl(port: number): ReferenceTool {
  return {
    name: 'testssl.sh',
    command: 'testssl',
    aptPackage: 'testssl.sh',
    covers: (issue) => TESTSSL_COVERS.has(issue.rule_id),
    async run(fixture) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-testssl-'));
      try {
        const json = path.join(dir, 'out.json');
        const args = ['--quiet', '--warnings', 'off', '--color', '0', '--nodns', 'none'].concat([
          '--add-ca',
          testPki().rootFile,
          '--jsonfile',
          json,
          `${fixture.target}:${port}`,
        ]);
        const run = await runTool('testssl', args, { timeoutMs: 900_000 });
        const items = JSON.parse(await readFile(json, 'utf8')) as TestsslItem[];
        return toolRun(testsslRules(items), testsslToolOnly(items), fixture, port, run.ms);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

function sslscan(port: number): ReferenceTool {
  return {
    name: 'sslscan',
    command: 'sslscan',
    aptPackage: 'sslscan',
    covers: (issue) => SSLSCAN_COVERS.has(issue.rule_id),
    async run(fixture) {
      const run = await runTool('sslscan', ['--xml=-', '--no-colour', `${fixture.target}:${port}`], {
        timeoutMs: 300_000,
      });
      return toolRun(sslscanRules(run.stdout), sslscanToolOnly(run.stdout), fixture, port, run.ms);
    },
  };
}

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
  tools: [testssl(port), sslscan(port)],
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
