// Outside corpus, TLS: badssl.com's documented test cases (its nginx includes and certificate recipes,
// read from its repository), served again by Debian's nginx, plus Debian's own default site with its two
// commented TLS lines switched on. Each planted list was written from the case's configuration and the
// reference tools' reports before our scanner ran on it (see docs/scanners.md, "Outside corpus"); it is
// never used by the unit tests.
//
// badssl.com's servers ran OpenSSL 1.0, which had no security levels; Debian's OpenSSL 3 refuses SHA-1 and
// MD5 chains, 1024-bit keys and groups and TLS 1.0/1.1 below level 0, so `@SECLEVEL=0` is appended to the
// case's own cipher string (what an administrator on Debian does to keep such a server up). OpenSSL 3 has
// no SSLv3, 3DES or RC4 and no DH group under 1024 bits: the 3DES, RC4 and dh512 cases are served by
// gnutls-serv with the same lists.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { tlsFindings } from '../../../agents/scanners/core/tls-check.ts';
import { runScan } from '../../../agents/scanners/run-scan.ts';
import { runServer } from '../../../tests/fixtures/services/apt-servers.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import { round } from '../../lib/report.ts';
import { badsslPki, dhParams, trustBadsslRoot } from '../outside/badssl-pki.ts';
import type { LeafSpec } from '../outside/badssl-pki.ts';
import { outsideTlsPlanted } from '../outside/planted-tls.ts';
import type { OutsideTlsCase } from '../outside/planted-tls.ts';
import { sslscan, testssl } from '../tls-tools.ts';
import type { DetectionFixture } from '../types.ts';

/** badssl.com's tls-defaults (Mozilla's "old" profile of 2015, server order). */
const TLS_DEFAULTS = {
  protocols: 'SSLv3 TLSv1 TLSv1.1 TLSv1.2',
  ciphers:
    'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES256-GCM-SHA384:DHE-RSA-AES128-GCM-SHA256:DHE-DSS-AES128-GCM-SHA256:kEDH+AESGCM:ECDHE-RSA-AES128-SHA256:ECDHE-ECDSA-AES128-SHA256:ECDHE-RSA-AES128-SHA:ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES256-SHA384:ECDHE-ECDSA-AES256-SHA384:ECDHE-RSA-AES256-SHA:ECDHE-ECDSA-AES256-SHA:DHE-RSA-AES128-SHA256:DHE-RSA-AES128-SHA:DHE-DSS-AES128-SHA256:DHE-RSA-AES256-SHA256:DHE-DSS-AES256-SHA:DHE-RSA-AES256-SHA:ECDHE-RSA-DES-CBC3-SHA:ECDHE-ECDSA-DES-CBC3-SHA:AES128-GCM-SHA256:AES256-GCM-SHA384:AES128-SHA256:AES256-SHA256:AES128-SHA:AES256-SHA:AES:DES-CBC3-SHA:HIGH:!aNULL:!eNULL:!EXPORT:!DES:!RC4:!MD5:!PSK:!aECDH:!EDH-DSS-DES-CBC3-SHA:!EDH-RSA-DES-CBC3-SHA:!KRB5-DES-CBC3-SHA',
  dh: 2048,
};
const DHE_ONLY =
  'DHE-RSA-AES128-GCM-SHA256:DHE-DSS-AES128-GCM-SHA256:kEDH+AESGCM:DHE-RSA-AES128-SHA256:DHE-RSA-AES128-SHA:DHE-DSS-AES128-SHA256:DHE-RSA-AES256-SHA256:DHE-DSS-AES256-SHA:DHE-RSA-AES256-SHA:!aNULL:!eNULL:!EXPORT:!DES:!RC4:!3DES:!MD5:!PSK';

interface NginxCase {
  kind: 'nginx';
  leaf: LeafSpec;
  protocols: string;
  /** nginx's own default when absent (HIGH:!aNULL:!MD5). */
  ciphers?: string;
  dh?: number;
  serverOrder?: boolean;
  extra?: string;
}
interface GnutlsCase {
  kind: 'gnutls';
  leaf: LeafSpec;
  priority: string;
  /** A DH group of this many bits for DHE suites (clients that name no RFC 7919 group get it). */
  dh?: number;
}
interface DebianCase {
  kind: 'debian-nginx';
}
type CaseConfig = NginxCase | GnutlsCase | DebianCase;

const normal: LeafSpec = { key: 'rsa2048', digest: 'sha256', issuer: 'intermediate' };
const defaults = (leaf: LeafSpec, over: Partial<NginxCase> = {}): NginxCase => ({
  kind: 'nginx',
  leaf,
  protocols: TLS_DEFAULTS.protocols,
  ciphers: TLS_DEFAULTS.ciphers,
  dh: TLS_DEFAULTS.dh,
  serverOrder: true,
  ...over,
});
const restricted = (ciphers: string, over: Partial<NginxCase> = {}): NginxCase => ({
  kind: 'nginx',
  leaf: normal,
  protocols: 'TLSv1.1 TLSv1.2',
  ciphers,
  serverOrder: true,
  ...over,
});

/** Each case's configuration, named as badssl.com names its subdomain. */
const configs: Record<OutsideTlsCase, CaseConfig> = {
  'sha1-intermediate': defaults({ ...normal, issuer: 'sha1-intermediate' }),
  'sha1-2016': defaults({ ...normal, digest: 'sha1' }),
  md5: defaults({ ...normal, digest: 'md5' }),
  rsa1024: defaults({ ...normal, key: 'rsa1024' }),
  'self-signed': defaults({ ...normal, issuer: 'self' }),
  'self-signed-sha1': defaults({ ...normal, issuer: 'self', digest: 'sha1' }),
  'untrusted-root': defaults({ ...normal, issuer: 'untrusted-root' }),
  'incomplete-chain': defaults({ ...normal, chain: 'leaf-only' }),
  'misordered-chain': defaults({ ...normal, chain: 'root-first' }),
  expired: defaults({ ...normal, dates: ['20150409000000Z', '20150412235959Z'] }),
  'wrong.host': defaults({ ...normal, wrongHost: true }),
  ecc256: defaults({ ...normal, key: 'ecc256' }),
  dh1024: restricted(DHE_ONLY, { dh: 1024 }),
  // OpenSSL 3 refuses DH groups under 1024 bits even at security level 0, so badssl.com's DHE-only list
  // is served by gnutls-serv (TLS 1.1 and 1.2, server order) with a 512-bit group.
  dh512: {
    kind: 'gnutls',
    leaf: normal,
    dh: 512,
    priority:
      'NONE:+VERS-TLS1.2:+VERS-TLS1.1:+DHE-RSA:+AES-128-GCM:+AES-256-GCM:+AES-128-CBC:+AES-256-CBC:+SHA1:+SHA256:+AEAD:+COMP-NULL:+SIGN-ALL:+GROUP-EC-ALL:%SERVER_PRECEDENCE',
  },
  'static-rsa': restricted('kRSA'),
  cbc: restricted('AES256:AES128:3DES:!AESGCM:!RC4:!aNULL:!eNULL:!EXPORT:!DES:!3DES:!MD5:!PSK'),
  null: restricted('NULL:aNULL:eNULL:!RC4:!EXPORT:!DES:!CBC:!3DES:!MD5:!PSK'),
  'tls-v1-0': defaults(normal, { protocols: 'TLSv1' }),
  'tls-v1-1': defaults(normal, { protocols: 'TLSv1.1' }),
  'tls-v1-2': { kind: 'nginx', leaf: normal, protocols: 'TLSv1.2' },
  'mozilla-old': defaults(normal, {
    dh: 1024,
    ciphers:
      'ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES256-GCM-SHA384:DHE-RSA-AES128-GCM-SHA256:DHE-DSS-AES128-GCM-SHA256:kEDH+AESGCM:ECDHE-RSA-AES128-SHA256:ECDHE-ECDSA-AES128-SHA256:ECDHE-RSA-AES128-SHA:ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES256-SHA384:ECDHE-ECDSA-AES256-SHA384:ECDHE-RSA-AES256-SHA:ECDHE-ECDSA-AES256-SHA:DHE-RSA-AES128-SHA256:DHE-RSA-AES128-SHA:DHE-DSS-AES128-SHA256:DHE-RSA-AES256-SHA256:DHE-DSS-AES256-SHA:DHE-RSA-AES256-SHA:ECDHE-RSA-DES-CBC3-SHA:ECDHE-ECDSA-DES-CBC3-SHA:EDH-RSA-DES-CBC3-SHA:AES128-GCM-SHA256:AES256-GCM-SHA384:AES128-SHA256:AES256-SHA256:AES128-SHA:AES256-SHA:AES:DES-CBC3-SHA:HIGH:SEED:!aNULL:!eNULL:!EXPORT:!DES:!RC4:!MD5:!PSK:!RSAPSK:!aDH:!aECDH:!EDH-DSS-DES-CBC3-SHA:!KRB5-DES-CBC3-SHA:!SRP',
  }),
  'mozilla-modern': {
    kind: 'nginx',
    leaf: { ...normal, revocable: true },
    protocols: 'TLSv1.2',
    ciphers:
      'ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-SHA384:ECDHE-RSA-AES256-SHA384:ECDHE-ECDSA-AES128-SHA256:ECDHE-RSA-AES128-SHA256',
    serverOrder: true,
    extra: 'add_header Strict-Transport-Security max-age=15768000;',
  },
  // badssl.com's 3des and rc4 lists, in GnuTLS's priority syntax (TLS 1.1 and 1.2, server order).
  '3des': {
    kind: 'gnutls',
    leaf: normal,
    priority:
      'NONE:+VERS-TLS1.2:+VERS-TLS1.1:+ECDHE-RSA:+DHE-RSA:+RSA:+3DES-CBC:+SHA1:+COMP-NULL:+SIGN-ALL:+GROUP-ALL:%SERVER_PRECEDENCE',
  },
  rc4: {
    kind: 'gnutls',
    leaf: normal,
    priority:
      'NONE:+VERS-TLS1.2:+VERS-TLS1.1:+ECDHE-RSA:+RSA:+ARCFOUR-128:+SHA1:+COMP-NULL:+SIGN-ALL:+GROUP-ALL:%SERVER_PRECEDENCE',
  },
  'debian-nginx-snakeoil': { kind: 'debian-nginx' },
};

const nginxConf = (dir: string, port: number, tls: string) => `# The outside TLS corpus: one badssl.com case.
master_process off;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port} ssl;
    root ${dir}/www;
${tls}
  }
}
`;

async function serveNginx(dir: string, port: number, tls: string): Promise<() => Promise<void>> {
  await mkdir(path.join(dir, 'www'), { recursive: true });
  await writeFile(path.join(dir, 'www', 'index.html'), '<!doctype html><title>badssl</title>\n');
  await writeFile(path.join(dir, 'nginx.conf'), nginxConf(dir, port, tls));
  await chmod(dir, 0o755);
  const server = await runServer('/usr/sbin/nginx', ['-p', dir, '-c', `${dir}/nginx.conf`], port, dir);
  return server.close;
}

/**
 * Debian's nginx as installed, with the two TLS lines its default site leaves commented switched on
 * (`listen 443 ssl default_server;` and `include snippets/snakeoil.conf;`): the protocols of its
 * nginx.conf and a snakeoil certificate made by Debian's own make-ssl-cert, as ssl-cert's install makes it.
 */
async function debianNginx(dir: string): Promise<string> {
  const main = await readFile('/etc/nginx/nginx.conf', 'utf8');
  const keep = main.split('\n').filter((line) => /^\s*ssl_(protocols|prefer_server_ciphers)\b/.test(line));
  const pem = path.join(dir, 'snakeoil.pem');
  execFileSync('make-ssl-cert', ['/usr/share/ssl-cert/ssleay.cnf', pem, '--force-overwrite'], {
    stdio: 'pipe',
  });
  return [...keep, `ssl_certificate ${pem};`, `ssl_certificate_key ${pem};`]
    .map((l) => `    ${l.trim()}`)
    .join('\n');
}

async function startCase(name: OutsideTlsCase, port: number): Promise<RunningFixture> {
  const config = configs[name];
  const dir = await mkdtemp(path.join(os.tmpdir(), `vigil-outside-tls-${name.replace(/\W/g, '')}-`));
  const planted: PlantedIssue[] = outsideTlsPlanted[name].map((rule_id) => ({
    rule_id,
    location: `:${port}`,
  }));
  planted.unshift({ rule_id: 'infra.open-port', location: `:${port}` });
  if (config.kind === 'debian-nginx') {
    const close = await serveNginx(dir, port, await debianNginx(dir));
    return { target: '127.0.0.1', planted, close };
  }
  const leaf = badsslPki().leaf(name.replace(/\W/g, '-'), config.leaf);
  if (config.kind === 'gnutls') {
    const args = ['--http', '--disable-client-cert', '--port', String(port), '--priority', config.priority]
      .concat(['--x509certfile', leaf.chain, '--x509keyfile', leaf.key])
      .concat(
        config.dh
          ? ['--dhparams', dhParams(path.join(badsslPki().dir, `dh${config.dh}.pem`), config.dh)]
          : [],
      );
    const server = await runServer('/usr/bin/gnutls-serv', args, port, dir);
    return { target: '127.0.0.1', planted, close: server.close };
  }
  const lines = [
    `ssl_certificate ${leaf.chain};`,
    `ssl_certificate_key ${leaf.key};`,
    `ssl_protocols ${config.protocols};`,
    `ssl_ciphers '${config.ciphers ?? 'HIGH:!aNULL:!MD5'}:@SECLEVEL=0';`,
    ...(config.serverOrder ? ['ssl_prefer_server_ciphers on;'] : []),
    ...(config.dh
      ? [`ssl_dhparam ${dhParams(path.join(badsslPki().dir, `dh${config.dh}.pem`), config.dh)};`]
      : []),
    'ssl_session_timeout 5m;',
    ...(config.extra ? [config.extra] : []),
  ];
  const close = await serveNginx(dir, port, lines.map((l) => `    ${l}`).join('\n'));
  return { target: '127.0.0.1', planted, close };
}

const cases = Object.keys(configs) as OutsideTlsCase[];
const portOf = (name: OutsideTlsCase) => 19401 + cases.indexOf(name);

export const fixtures: DetectionFixture[] = cases.map((name) => {
  const port = portOf(name);
  return {
    name: `outside TLS ${name} (:${port})`,
    classOf: (issue) => (issue.rule_id === 'infra.open-port' ? 'ports' : 'outside-tls'),
    start: () => startCase(name, port),
    async scan(f) {
      trustBadsslRoot();
      const result = await runScan('infrastructure', {
        target: f.target,
        mode: 'local',
        ports: String(port),
      });
      // The scan's time includes nmap's version detection; the TLS checks of the endpoint, alone:
      const started = performance.now();
      await tlsFindings({ host: f.target, address: f.target, family: 4 }, port, `${f.target}:${port}`);
      return { ...result, detail: `TLS checks alone ${round((performance.now() - started) / 1000, 2)} s` };
    },
    tools: [testssl(port, () => badsslPki().rootFile), sslscan(port)],
  };
});
