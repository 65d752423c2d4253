// testssl.sh and sslscan as the TLS bench classes run them (`tls` on our fixtures, `outside-tls` on the
// outside corpus), per port, through the parsers of tls-parsers.ts (a tool's finding counts only when the
// tool itself flags it). What a tool flags that maps to none
// of our rules is handed on as tool-only findings (bench/detection/tool-only-review.ts), so a problem only
// a tool sees is never silently dropped. `VIGIL_BENCH_OUTSIDE_RAW=DIR` keeps every tool's raw output there
// (how the planted lists were checked before our scanner ran).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { PlantedIssue, RunningFixture } from '../../tests/fixtures/planted.ts';
import {
  sslscanRules,
  sslscanToolOnly,
  testsslRules,
  testsslToolOnly,
  type TestsslItem,
} from './tls-parsers.ts';
import { runTool } from './tool-process.ts';
import type { ReferenceTool, ToolRun } from './types.ts';

/** Keeps a tool's raw output for whoever writes or checks a planted list. */
export async function keepRaw(fixture: string, tool: string, text: string): Promise<void> {
  const dir = process.env.VIGIL_BENCH_OUTSIDE_RAW;
  if (dir) {
    await mkdir(dir, { recursive: true });
    const name = `${fixture}--${tool}`.replace(/[^a-z0-9.-]+/gi, '_').slice(0, 150);
    await writeFile(path.join(dir, `${name}.txt`), text);
  }
}

/** Rules a tool reported at `location`, split into planted ones and false ones. */
export function tally(
  fixture: RunningFixture,
  location: string,
  rules: Map<string, string>,
  toolOnly: string[],
  ms: number,
): ToolRun {
  const planted = new Set(fixture.planted.filter((p) => p.location === location).map((p) => p.rule_id));
  const found: PlantedIssue[] = [...rules.keys()].map((rule_id) => ({ rule_id, location }));
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

export function testssl(port: number, caFile: () => string): ReferenceTool {
  return {
    name: 'testssl.sh',
    command: 'testssl',
    aptPackage: 'testssl.sh',
    covers: (issue) => TESTSSL_COVERS.has(issue.rule_id),
    async run(fixture) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-testssl-'));
      try {
        const json = path.join(dir, 'out.json');
        const args = [
          '--quiet',
          '--warnings',
          'off',
          '--color',
          '0',
          '--nodns',
          'none',
          '--add-ca',
          caFile(),
        ].concat(['--jsonfile', json, `${fixture.target}:${port}`]);
        const run = await runTool('testssl', args, { timeoutMs: 900_000 });
        const text = await readFile(json, 'utf8');
        await keepRaw(`${port}`, 'testssl', text);
        const items = JSON.parse(text) as TestsslItem[];
        return tally(fixture, `:${port}`, testsslRules(items), testsslToolOnly(items), run.ms);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

export function sslscan(port: number): ReferenceTool {
  return {
    name: 'sslscan',
    command: 'sslscan',
    aptPackage: 'sslscan',
    covers: (issue) => SSLSCAN_COVERS.has(issue.rule_id),
    async run(fixture) {
      const run = await runTool('sslscan', ['--xml=-', '--no-colour', `${fixture.target}:${port}`], {
        timeoutMs: 300_000,
      });
      await keepRaw(`${port}`, 'sslscan', run.stdout);
      return tally(fixture, `:${port}`, sslscanRules(run.stdout), sslscanToolOnly(run.stdout), run.ms);
    },
  };
}
