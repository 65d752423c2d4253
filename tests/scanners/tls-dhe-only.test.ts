// Servers that offer DHE suites only, configured as their administrators' guides write them, each surveyed
// by the TLS checks alone (agents/scanners/core/tls-check.ts):
// - gnutls-serv with badssl.com's dh512 list (TLS 1.1/1.2, a 512-bit group of its own, curves as its only
//   named groups): it must not choose DHE for a client that names an RFC 7919 group it lacks (RFC 7919
//   §4), so a hello naming every group gets a handshake_failure, and only one naming curves alone (as
//   OpenSSL's TLS 1.2 client does) is served, with the 512-bit group;
// - nginx on OpenSSL 3 with badssl.com's DHE-only list and a 1024-bit group (OpenSSL ignores the named
//   finite-field groups before TLS 1.3 and always uses its configured group);
// - gnutls-serv with DHE only over TLS 1.2, AEAD suites and RFC 7919's ffdhe3072 as its group: nothing
//   about its suites, versions or group may be reported.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Finding } from '../../shared/findings.ts';
import { tlsFindings } from '../../agents/scanners/core/tls-check.ts';
import { ALL_GROUPS, EC_GROUPS } from '../../agents/scanners/core/tls-hello.ts';
import { probeHello } from '../../agents/scanners/core/tls-probe.ts';
import { surveyTls, type TlsSurvey } from '../../agents/scanners/core/tls-survey.ts';
import { runServer } from '../fixtures/services/apt-servers.ts';
import { debianFile } from '../fixtures/debian-packages.ts';
import { weakDhParams } from '../fixtures/tls/tls-certs.ts';
import { dheOnlyPorts as ports, testPki, tlsBinaries } from '../fixtures/tls/tls-servers.ts';
import { requires } from '../helpers/requirements.ts';

/** What a DHE-only server's suites, versions and group can be reported for. */
const SUITE_RULES = [
  'tls.legacy-protocol',
  'tls.weak-dh',
  'tls.no-forward-secrecy',
  'tls.cbc-only',
  'tls.cbc-tls10',
  'tls.no-server-order',
  'tls.block64-cipher',
  'tls.rc4',
  'tls.null-cipher',
  'tls.anonymous-cipher',
];
/** Written from each configuration before the scanner ran on it. */
const planted: Record<keyof typeof ports, string[]> = {
  gnutls512: ['tls.legacy-protocol', 'tls.weak-dh'],
  nginx1024: ['tls.legacy-protocol', 'tls.weak-dh'],
  gnutlsGood: [],
};

describe('DHE-only servers', requires(...Object.values(tlsBinaries).map(debianFile)), () => {
  const closers: (() => Promise<void>)[] = [];
  const surveys = new Map<keyof typeof ports, TlsSurvey>();
  const findings = new Map<keyof typeof ports, Finding[]>();
  const target = { host: '127.0.0.1', address: '127.0.0.1', family: 4 as const };

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-dhe-only-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const leaf = testPki().issue('dhe-only', { san: 'IP:127.0.0.1', key: 'rsa:2048', digest: 'sha256' });
    const gnutls = (port: number, priority: string, dh: string) =>
      runServer(
        tlsBinaries.gnutls,
        ['--http', '--disable-client-cert', '--port', String(port), '--priority', priority].concat([
          '--x509certfile',
          leaf.chain,
          '--x509keyfile',
          leaf.key,
          '--dhparams',
          dh,
        ]),
        port,
        path.join(dir, String(port)),
      );
    const dh512 = path.join(dir, 'dh512.pem');
    execFileSync('openssl', ['dhparam', '-out', dh512, '512'], { stdio: 'pipe' });
    closers.push(
      (
        await gnutls(
          ports.gnutls512,
          'NONE:+VERS-TLS1.2:+VERS-TLS1.1:+DHE-RSA:+AES-128-GCM:+AES-256-GCM:+AES-128-CBC:+AES-256-CBC:+SHA1:+SHA256:+AEAD:+COMP-NULL:+SIGN-ALL:+GROUP-EC-ALL:%SERVER_PRECEDENCE',
          dh512,
        )
      ).close,
    );
    const ffdhe3072 = path.join(dir, 'ffdhe3072.pem');
    execFileSync(
      'openssl',
      ['genpkey', '-genparam', '-algorithm', 'DH', '-pkeyopt', 'group:ffdhe3072', '-out', ffdhe3072],
      {
        stdio: 'pipe',
      },
    );
    closers.push(
      (
        await gnutls(
          ports.gnutlsGood,
          'NONE:+VERS-TLS1.2:+DHE-RSA:+AES-128-GCM:+AES-256-GCM:+AEAD:+COMP-NULL:+SIGN-ALL:+GROUP-FFDHE3072:%SERVER_PRECEDENCE',
          ffdhe3072,
        )
      ).close,
    );
    const nginxDir = path.join(dir, 'nginx');
    await mkdir(path.join(nginxDir, 'body'), { recursive: true });
    await writeFile(
      path.join(nginxDir, 'nginx.conf'),
      `master_process off;
daemon off;
pid ${nginxDir}/nginx.pid;
error_log stderr warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${nginxDir}/body;
  proxy_temp_path ${nginxDir}/proxy;
  fastcgi_temp_path ${nginxDir}/fastcgi;
  uwsgi_temp_path ${nginxDir}/uwsgi;
  scgi_temp_path ${nginxDir}/scgi;
  server {
    listen 127.0.0.1:${ports.nginx1024} ssl;
    root ${nginxDir};
    ssl_certificate ${leaf.chain};
    ssl_certificate_key ${leaf.key};
    ssl_protocols TLSv1.1 TLSv1.2;
    ssl_ciphers 'DHE-RSA-AES128-GCM-SHA256:DHE-DSS-AES128-GCM-SHA256:kEDH+AESGCM:DHE-RSA-AES128-SHA256:DHE-RSA-AES128-SHA:DHE-DSS-AES128-SHA256:DHE-RSA-AES256-SHA256:DHE-DSS-AES256-SHA:DHE-RSA-AES256-SHA:!aNULL:!eNULL:!EXPORT:!DES:!RC4:!3DES:!MD5:!PSK:@SECLEVEL=0';
    ssl_prefer_server_ciphers on;
    ssl_dhparam ${weakDhParams(path.join(nginxDir, 'dh1024.pem'))};
  }
}
`,
    );
    closers.push(
      (
        await runServer(
          tlsBinaries.nginx,
          ['-p', nginxDir, '-c', `${nginxDir}/nginx.conf`],
          ports.nginx1024,
          nginxDir,
        )
      ).close,
    );
    for (const [name, port] of Object.entries(ports) as [keyof typeof ports, number][]) {
      surveys.set(name, await surveyTls({ address: '127.0.0.1', port, timeoutMs: 5000 }));
      findings.set(name, await tlsFindings(target, port, `127.0.0.1:${port}`));
    }
  }, 60_000);
  afterAll(async () => {
    // The servers first, their directory last.
    for (const close of closers.reverse()) {
      await close();
    }
  });

  it('GnuTLS refuses DHE to a hello naming RFC 7919 groups it lacks, and serves one naming curves alone', async () => {
    const dhe = [0x009e, 0x009f, 0x0033, 0x0039];
    const options = { address: '127.0.0.1', port: ports.gnutls512, timeoutMs: 5000, full: true };
    expect(await probeHello('TLSv1.2', dhe, { ...options, groups: ALL_GROUPS })).toMatchObject({
      accepted: false,
      reason: 'alert',
      alert: 40,
    });
    expect(await probeHello('TLSv1.2', dhe, { ...options, groups: EC_GROUPS })).toMatchObject({
      accepted: true,
      dhBits: 512,
    });
  });

  it('surveys each: the versions, the DHE suites, the server order and the group old clients get', () => {
    const gnutls = surveys.get('gnutls512')!;
    const versions = (s: TlsSurvey) => s.versions.filter((v) => v.suites.length > 0).map((v) => v.version);
    expect(versions(gnutls)).toEqual(['TLSv1.1', 'TLSv1.2']);
    expect(gnutls.versions.find((v) => v.version === 'TLSv1.2')!.suites).toEqual(
      expect.arrayContaining([0x009e, 0x009f, 0x0033, 0x0039, 0x0067, 0x006b]),
    );
    expect(gnutls.dhBits).toBe(512);
    expect(gnutls.serverOrder?.keeps).toBe(true);
    expect(gnutls.certificates.length).toBeGreaterThan(0);

    const nginx = surveys.get('nginx1024')!;
    expect(versions(nginx)).toEqual(['TLSv1.1', 'TLSv1.2']);
    expect(nginx.dhBits).toBe(1024);
    expect(nginx.serverOrder?.keeps).toBe(true);

    const good = surveys.get('gnutlsGood')!;
    expect(versions(good)).toEqual(['TLSv1.2']);
    // Named or not, its only group is ffdhe3072.
    expect(good.dhBits).toBe(3072);
  });

  it('reports the planted suite and group problems of each and nothing else of that kind', () => {
    for (const name of Object.keys(ports) as (keyof typeof ports)[]) {
      const got = findings
        .get(name)!
        .map((f) => f.rule_id)
        .filter((rule) => SUITE_RULES.includes(rule))
        .sort();
      expect({ name, got }).toEqual({ name, got: [...planted[name]].sort() });
    }
    const evidence = (name: keyof typeof ports) =>
      findings.get(name)!.find((f) => f.rule_id === 'tls.weak-dh')?.evidence ?? '';
    expect(evidence('gnutls512')).toMatch(/512-bit prime/);
    expect(evidence('nginx1024')).toMatch(/1024-bit prime/);
  });
});
