// The `npm run scan` contract (docs/architecture.md §7), spawned as a user would; inside the namespace.
import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { startDripServer } from '../fixtures/hostile/drip.ts';
import { escapeBanners } from '../fixtures/hostile/service-servers.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { startVulnerableWebapp } from '../fixtures/web/vulnerable-webapp.ts';

function scan(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsx', 'agents/cli/scan.ts', ...args], {
      env: { ...process.env, NO_COLOR: '1', VIGIL_SCAN_NMAP: 'off', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// The exact shape tools outside the repository rely on.
const contract = z.object({
  target: z.string(),
  type: z.enum(['webapp', 'infrastructure', 'api']),
  findings: z.array(
    z.object({
      rule_id: z.string().min(1),
      title: z.string().min(1),
      severity: z.enum(['critical', 'high', 'medium', 'low', 'info']),
      cwe: z.string().regex(/^CWE-\d+$/),
      location: z.string().min(1),
      evidence: z.string(),
    }),
  ),
  stats: z.object({ requests: z.number().int().nonnegative(), duration_ms: z.number().int().nonnegative() }),
});

describe('npm run scan', () => {
  let app: RunningFixture;
  beforeAll(async () => {
    app = await startVulnerableWebapp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('prints the contract JSON with --json', async () => {
    const { code, stdout } = await scan(['--type', 'webapp', '--target', app.target, '--json']);
    expect(code).toBe(0);
    const report = contract.parse(JSON.parse(stdout));
    expect(report.target).toBe(app.target);
    expect(report.type).toBe('webapp');
    expect(report.findings.map((f) => f.rule_id)).toEqual(
      expect.arrayContaining(['web.xss.reflected', 'web.exposed.git']),
    );
    expect(report.stats.requests).toBeGreaterThan(0);
    // Added beside stats: which crawl ran (the fixture's pages run scripts, so they are rendered when a
    // Chromium is installed, and the HTML crawl says why otherwise).
    const crawl = z
      .object({ engine: z.enum(['chromium', 'electron', 'html']), pages: z.number(), rendered: z.number() })
      .parse((JSON.parse(stdout) as { crawl: unknown }).crawl);
    expect(crawl.pages).toBeGreaterThan(0);
  });

  it('takes --rate and prints the same contract JSON', async () => {
    const { code, stdout } = await scan([
      '--type',
      'webapp',
      '--target',
      app.target,
      '--rate',
      '400',
      '--json',
    ]);
    expect(code).toBe(0);
    const report = contract.parse(JSON.parse(stdout));
    expect(report.findings.map((f) => f.rule_id)).toContain('web.exposed.git');
  });

  it('prints a readable report and progress on stderr without --json', async () => {
    const { code, stdout, stderr } = await scan(['--type', 'webapp', '--target', app.target]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Vigil webapp scan of/);
    expect(stdout).toMatch(/Reflected cross-site scripting/);
    expect(stderr).toMatch(/crawl/);
    expect(() => JSON.parse(stdout) as unknown).toThrow();
  });

  it.each([
    [[], /--type must be one of/],
    [['--type', 'database', '--target', 'x'], /--type must be one of webapp, infrastructure, api/],
    [['--type', 'webapp'], /--target is required/],
    [['--type', 'webapp', '--target', 'ftp://127.0.0.1/'], /must be an http:\/\/ or https:\/\/ URL/],
    [['--type', 'infrastructure', '--target', '127.0.0.1', '--ports', '70000'], /--ports: bad port range/],
    [
      ['--type', 'webapp', '--target', 'http://127.0.0.1', '--ports', '80'],
      /--ports applies to --type infrastructure only/,
    ],
    [['--type', 'webapp', '--target', 'http://127.0.0.1', '--bogus'], /Unknown option '--bogus'/],
    [
      ['--type', 'webapp', '--target', 'http://127.0.0.1', '--rate', '0'],
      /--rate must be between 0\.1 and 1000/,
    ],
    [['--type', 'api', '--target', 'http://127.0.0.1', '--rate', 'fast'], /--rate must be a number/],
    [
      ['--type', 'infrastructure', '--target', '127.0.0.1', '--rate', '5'],
      /--rate applies to --type webapp and api/,
    ],
    [
      ['--type', 'api', '--target', 'http://127.0.0.1', '--login', 'package.json'],
      /--login applies to --type webapp only/,
    ],
    [
      ['--type', 'webapp', '--target', 'http://127.0.0.1', '--login', '/nonexistent.json'],
      /--login \/nonexistent\.json: ENOENT/,
    ],
    [
      ['--type', 'webapp', '--target', 'http://127.0.0.1', '--login', 'README.md'],
      /--login README\.md: not valid JSON/,
    ],
  ])('exits 2 with a clear message for %j', async (args, message) => {
    const { code, stderr, stdout } = await scan(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toMatch(/usage: npm run scan/);
    expect(stdout).toBe('');
  });

  it('refuses a login file that is not a login, without repeating its secrets', async () => {
    const file = path.join(os.tmpdir(), `vigil-login-${process.pid}.json`);
    await writeFile(
      file,
      JSON.stringify({ kind: 'form', login_url: 'not a url', password: 'hunter2-secret' }),
    );
    try {
      const { code, stderr } = await scan(['--type', 'webapp', '--target', app.target, '--login', file]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/login_url: Enter the full http/);
      expect(stderr).toMatch(/username: /);
      expect(stderr).not.toContain('hunter2-secret');
    } finally {
      await rm(file, { force: true });
    }
  });

  it('exits 2 before scanning when the extra TLS trust anchors cannot be read', async () => {
    const { code, stderr, stdout } = await scan(['--type', 'infrastructure', '--target', '127.0.0.1'], {
      VIGIL_SCAN_TLS_CA_FILE: '/nonexistent/internal-ca.pem',
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/VIGIL_SCAN_TLS_CA_FILE: cannot read \/nonexistent\/internal-ca\.pem: ENOENT/);
    expect(stdout).toBe('');
  });

  it('exits 1 with a message when the target does not answer', async () => {
    const { code, stderr } = await scan(['--type', 'webapp', '--target', 'http://127.0.0.1:1/', '--json']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/vigil scan: .*ECONNREFUSED/);
  });

  it('prints banners that carry terminal escape sequences as inert text, never running them', async () => {
    const host = await escapeBanners.start();
    try {
      const { code, stdout } = await scan(
        ['--type', 'infrastructure', '--target', host.target, '--ports', host.ports ?? '21,22,23,80'],
        { NO_COLOR: '1' },
      );
      expect(code).toBe(0);
      // No byte a terminal acts on: ESC, BEL, CSI, or any other control but the report's own newlines.
      // eslint-disable-next-line no-control-regex
      expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(stdout).toContain('\\x1b[2J');
      expect(stdout).toMatch(/findings: /);
      expect(stdout).not.toMatch(/^All clear/m);
    } finally {
      await host.close();
    }
  });

  it('prints the partial report on Ctrl-C, saying it was interrupted', async () => {
    const drip = await startDripServer({ everyMs: 1000 });
    try {
      // Node itself (not npx) so the interrupt reaches the command as a terminal would send it.
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'agents/cli/scan.ts', '--type', 'webapp', '--target', drip.url],
        {
          env: { ...process.env, NO_COLOR: '1', VIGIL_SCAN_NMAP: 'off', VIGIL_SCAN_BROWSER: 'off' },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      // Interrupted once the scan is inside the drip (everything but the start page drips, robots.txt first).
      await expect.poll(() => /robots/.test(stderr), { timeout: 30_000, interval: 100 }).toBe(true);
      await new Promise((r) => setTimeout(r, 1000));
      const interruptedAt = Date.now();
      child.kill('SIGINT');
      const code = await exited;
      expect(code).toBe(0);
      // The stop's grace, the kill of the scan's processes, the report: a few seconds, not the drip's forever.
      expect(Date.now() - interruptedAt).toBeLessThan(10_000);
      expect(stdout).toMatch(/partial result/);
      expect(stdout).toMatch(/stopped: interrupted \(Ctrl-C\)/);
      // What the start page showed before the drip is in the report.
      expect(stdout).toMatch(/web\.transport\.cleartext/);
    } finally {
      await drip.close();
    }
  });
});
