// Outside corpus, web servers: Debian's nginx, Apache and lighttpd run from Debian's own configuration
// files as installed (read from /etc at start, paths moved into a temporary directory, bound to loopback),
// each with one documented switch flipped or one example from the server's own documentation pasted in:
// nginx's autoindex, dav and stub_status examples and its add_header inheritance rule, enable-cors.org's
// snippet; Apache's `Options Indexes`, TraceEnable, mod_dav's example with and without its authentication,
// mod_info, and the hardening lines security.conf leaves commented; lighttpd's dir-listing, status and
// webdav files. Each planted list (bench/detection/outside/planted-web.ts) was written from the
// configuration and the reference tools' reports before our scanner ran; no unit test uses it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { chmod, chown, cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { runScan } from '../../../agents/scanners/run-scan.ts';
import { runServer, tempDir } from '../../../tests/fixtures/services/apt-servers.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import { nginxConf } from '../../../tests/fixtures/web/nginx-conf.ts';
import { writeTree } from '../../../tests/fixtures/web/web-leftovers.ts';
import { outsideWebPlanted } from '../outside/planted-web.ts';
import type { OutsideWebCase } from '../outside/planted-web.ts';
import type { DetectionFixture } from '../types.ts';
import { nmapHttp, wapiti, whatweb } from '../web-files-tools.ts';

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>\n`;

// ---- nginx --------------------------------------------------------------------------------------------

/** The simple directives of the `http` block of Debian's /etc/nginx/nginx.conf (logs and includes of sites aside). */
async function debianNginxHttp(): Promise<string[]> {
  const conf = await readFile('/etc/nginx/nginx.conf', 'utf8');
  const http = conf.slice(conf.indexOf('http {'));
  return http
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => /^[a-z_]+\s.*;$/.test(line))
    .filter(
      (line) =>
        !/^(access_log|error_log)\b/.test(line) && !/^include\s+\/etc\/nginx\/(conf\.d|sites-)/.test(line),
    );
}

interface NginxCase {
  /** The server block's directives after `listen` and `root`. */
  server: string;
  files: Record<string, string>;
  /** Debian's default index page in the root (index.nginx-debian.html). */
  debianIndex?: boolean;
}

async function startNginx(dir: string, port: number, site: NginxCase): Promise<() => Promise<void>> {
  const www = path.join(dir, 'www');
  await writeTree(www, site.files);
  if (site.debianIndex) {
    await cp('/var/www/html/index.nginx-debian.html', path.join(www, 'index.nginx-debian.html'));
  }
  await mkdir(path.join(dir, 'client_temp'), { recursive: true });
  await writeFile(
    path.join(dir, 'nginx.conf'),
    nginxConf({
      dir,
      comment: "The outside web corpus: Debian's nginx.conf (http block) with one documented change.",
      http: await debianNginxHttp(),
      // Debian's nginx.conf leaves server_tokens at nginx's default: on.
      serverTokens: true,
      server: [
        `listen 127.0.0.1:${port};`,
        `root ${www};`,
        'index index.html index.htm index.nginx-debian.html;',
        'server_name _;',
        ...site.server.trim().split('\n'),
      ]
        .map((line) => `    ${line.trim()}`)
        .join('\n'),
    }),
  );
  await chmod(dir, 0o755);
  const server = await runServer('/usr/sbin/nginx', ['-p', dir, '-c', `${dir}/nginx.conf`], port, dir);
  return server.close;
}

const debianSite = 'location / { try_files $uri $uri/ =404; }';

const nginxCases = (dir: string): Record<string, NginxCase> => ({
  'nginx-debian': { server: debianSite, files: {}, debianIndex: true },
  'nginx-autoindex': {
    server: 'location / { autoindex on; }',
    files: {
      'releases/acme-agent-1.4.2.tar.gz': 'release archive',
      'releases/acme-agent-1.5.0.tar.gz': 'release archive',
      'releases/SHA256SUMS': 'sums',
      'manuals/install.txt': 'Install: unpack and run ./install.sh\n',
      'manuals/changelog.txt': '1.5.0: faster sync\n',
    },
  },
  'nginx-dav': {
    server: `location / {
      client_body_temp_path ${dir}/client_temp;
      dav_methods PUT DELETE MKCOL COPY MOVE;
      create_full_put_path on;
      dav_access group:rw all:r;
    }`,
    files: {
      'index.html': page('Team files', '<h1>Team files</h1><a href="/notes.txt">Notes</a>'),
      'notes.txt': 'Q3 plan\n',
    },
  },
  'nginx-dav-limited': {
    server: `location / {
      client_body_temp_path ${dir}/client_temp;
      dav_methods PUT DELETE MKCOL COPY MOVE;
      create_full_put_path on;
      dav_access group:rw all:r;
      limit_except GET {
        allow 192.168.1.0/32;
        deny all;
      }
    }`,
    files: {
      'index.html': page('Team files', '<h1>Team files</h1><a href="/notes.txt">Notes</a>'),
      'notes.txt': 'Q3 plan\n',
    },
  },
  'nginx-add-header': {
    server: `server_tokens off;
    add_header X-Frame-Options SAMEORIGIN always;
    add_header X-Content-Type-Options nosniff always;
    add_header Referrer-Policy strict-origin-when-cross-origin always;
    add_header Permissions-Policy "camera=(), microphone=(), geolocation=()" always;
    add_header Content-Security-Policy "default-src 'self'" always;
    location / { try_files $uri $uri/ =404; }
    location /blog/ {
      add_header Cache-Control "public, max-age=600";
      try_files $uri $uri/ =404;
    }`,
    files: {
      'index.html': page(
        'Initech',
        '<h1>Initech</h1><a href="/blog/">Blog</a> <a href="/about.html">About</a>',
      ),
      'about.html': page('About Initech', '<p>Since 1999.</p>'),
      'blog/index.html': page('Initech blog', '<a href="/blog/2024/launch.html">We launched</a>'),
      'blog/2024/launch.html': page('We launched', '<p>TPS reports, now online.</p>'),
    },
  },
  'nginx-cors': {
    server: `location / { try_files $uri $uri/ =404; }
    location /api/ {
      if ($request_method = 'OPTIONS') {
        add_header 'Access-Control-Allow-Origin' '*';
        add_header 'Access-Control-Allow-Methods' 'GET, POST, OPTIONS';
        add_header 'Access-Control-Allow-Headers' 'DNT,User-Agent,X-Requested-With,If-Modified-Since,Cache-Control,Content-Type,Range';
        add_header 'Access-Control-Max-Age' 1728000;
        add_header 'Content-Type' 'text/plain; charset=utf-8';
        add_header 'Content-Length' 0;
        return 204;
      }
      if ($request_method = 'GET') {
        add_header 'Access-Control-Allow-Origin' '*' always;
        add_header 'Access-Control-Allow-Methods' 'GET, POST, OPTIONS' always;
        add_header 'Access-Control-Allow-Headers' 'DNT,User-Agent,X-Requested-With,If-Modified-Since,Cache-Control,Content-Type,Range' always;
        add_header 'Access-Control-Expose-Headers' 'Content-Length,Content-Range' always;
      }
    }
    location /account/ {
      add_header Access-Control-Allow-Origin $http_origin always;
      add_header Access-Control-Allow-Credentials true always;
      add_header Vary Origin always;
    }`,
    files: {
      'index.html': page(
        'Shop',
        '<h1>Shop</h1><a href="/api/products.json">Products (JSON)</a> <a href="/account/profile.json">My profile (JSON)</a>',
      ),
      'api/products.json': JSON.stringify([{ id: 1, name: 'Kettle', price: 25 }]),
      'account/profile.json': JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.test' }),
    },
  },
  'nginx-stub-status': {
    server: `${debianSite}
    location = /basic_status { stub_status; }`,
    files: {},
    debianIndex: true,
  },
});

// ---- Apache -------------------------------------------------------------------------------------------

interface ApacheCase {
  /** Modules switched on as `a2enmod` does (mods-available → mods-enabled), and off. */
  enable?: string[];
  disable?: string[];
  /** Lines of conf-available/security.conf replaced (`from` → `to`), as an administrator edits it. */
  security?: [string, string][];
  /** The virtual host's lines after DocumentRoot. */
  site?: string;
  files?: Record<string, string>;
  /** Folders outside the document root (WebDAV's), writable by www-data. */
  writable?: string[];
}

const digestRealm = 'DAV-upload';
const digestLine = (user: string, password: string) =>
  `${user}:${digestRealm}:${createHash('md5').update(`${user}:${digestRealm}:${password}`).digest('hex')}\n`;

const apacheCases = (dir: string): Record<string, ApacheCase> => ({
  'apache-debian': {},
  'apache-indexes': {
    files: {
      'html/uploads/q3-report.pdf': '%PDF-1.4 report',
      'html/uploads/logo.png': 'png',
      'html/backup/site-2023.tar.gz': 'archive',
    },
  },
  'apache-trace': { security: [['TraceEnable Off', 'TraceEnable On']] },
  'apache-dav': {
    enable: ['dav', 'dav_fs'],
    writable: ['uploads'],
    site: `Alias "/uploads" "${dir}/uploads"
<Directory "${dir}/uploads">
    Require all granted
    Dav On
</Directory>`,
  },
  'apache-dav-auth': {
    enable: ['dav', 'dav_fs', 'auth_digest'],
    writable: ['uploads'],
    site: `Alias "/uploads" "${dir}/uploads"
<Directory "${dir}/uploads">
    Dav On
    AuthType Digest
    AuthName "${digestRealm}"
    AuthUserFile "${dir}/user.passwd"
    AuthDigestProvider file
    <RequireAny>
        Require method GET POST OPTIONS
        Require user admin
    </RequireAny>
</Directory>`,
  },
  'apache-info': { enable: ['info'] },
  'apache-hardened': {
    enable: ['headers'],
    disable: ['status'],
    security: [
      ['ServerTokens OS', 'ServerTokens Prod'],
      ['ServerSignature On', 'ServerSignature Off'],
      ['#Header set X-Content-Type-Options: "nosniff"', 'Header set X-Content-Type-Options: "nosniff"'],
      [
        `#Header set Content-Security-Policy "frame-ancestors 'self';"`,
        `Header set Content-Security-Policy "frame-ancestors 'self';"`,
      ],
    ],
    site: `<Directory ${dir}/www/>
    Options -Indexes
</Directory>`,
  },
});

/** `a2enmod`/`a2dismod` in the copied tree: both the .load and the .conf of each module. */
async function switchModules(conf: string, enable: string[], disable: string[]): Promise<void> {
  for (const name of disable) {
    await rm(path.join(conf, 'mods-enabled', `${name}.load`), { force: true });
    await rm(path.join(conf, 'mods-enabled', `${name}.conf`), { force: true });
  }
  for (const name of enable) {
    for (const ext of ['load', 'conf']) {
      const from = path.join(conf, 'mods-available', `${name}.${ext}`);
      const to = path.join(conf, 'mods-enabled', `${name}.${ext}`);
      if (existsSync(from) && !existsSync(to)) {
        await symlink(from, to);
      }
    }
  }
}

async function startApache(dir: string, port: number, site: ApacheCase): Promise<() => Promise<void>> {
  const conf = path.join(dir, 'conf');
  await cp('/etc/apache2', conf, { recursive: true, verbatimSymlinks: false });
  // Debian's symlinks point into /etc/apache2: made again inside the copy.
  for (const folder of ['mods-enabled', 'conf-enabled']) {
    for (const name of readdirSync(path.join(conf, folder))) {
      const available = folder.replace('enabled', 'available');
      await rm(path.join(conf, folder, name), { force: true });
      await symlink(path.join(conf, available, name), path.join(conf, folder, name));
    }
  }
  await rm(path.join(conf, 'sites-enabled'), { recursive: true, force: true });
  await mkdir(path.join(conf, 'sites-enabled'));
  await switchModules(conf, site.enable ?? [], site.disable ?? []);
  const www = path.join(dir, 'www');
  await mkdir(path.join(www, 'html'), { recursive: true });
  await cp('/var/www/html/index.html', path.join(www, 'html', 'index.html'));
  await writeTree(www, site.files ?? {});
  const main = await readFile(path.join(conf, 'apache2.conf'), 'utf8');
  await writeFile(path.join(conf, 'apache2.conf'), main.replaceAll('/var/www/', `${www}/`));
  let security = await readFile(path.join(conf, 'conf-available', 'security.conf'), 'utf8');
  for (const [from, to] of site.security ?? []) {
    if (!security.includes(from)) {
      throw new Error(`security.conf has no line ${from}`);
    }
    security = security.replace(from, to);
  }
  await writeFile(path.join(conf, 'conf-available', 'security.conf'), security);
  await writeFile(path.join(conf, 'ports.conf'), `Listen 127.0.0.1:${port}\n`);
  await writeFile(
    path.join(conf, 'sites-enabled', 'site.conf'),
    `<VirtualHost *:${port}>
ServerName localhost
ServerAdmin webmaster@localhost
DocumentRoot ${www}/html
ErrorLog \${APACHE_LOG_DIR}/error.log
CustomLog \${APACHE_LOG_DIR}/access.log combined
${site.site ?? ''}
</VirtualHost>
`,
  );
  await writeFile(path.join(dir, 'user.passwd'), digestLine('admin', 'correct horse battery staple'));
  for (const folder of ['run', 'lock', 'log', ...(site.writable ?? [])]) {
    await mkdir(path.join(dir, folder), { recursive: true });
  }
  for (const folder of ['lock', ...(site.writable ?? [])]) {
    await chown(path.join(dir, folder), 33, 33);
  }
  await writeTree(path.join(dir, 'uploads'), site.writable ? { 'agenda.txt': 'Monday: planning\n' } : {});
  await chmod(dir, 0o755);
  const env = {
    ...process.env,
    APACHE_RUN_USER: 'www-data',
    APACHE_RUN_GROUP: 'www-data',
    APACHE_PID_FILE: path.join(dir, 'run', 'apache2.pid'),
    APACHE_RUN_DIR: path.join(dir, 'run'),
    APACHE_LOCK_DIR: path.join(dir, 'lock'),
    APACHE_LOG_DIR: path.join(dir, 'log'),
    LANG: 'C',
  };
  const server = await runServer(
    '/usr/sbin/apache2',
    ['-d', conf, '-f', 'apache2.conf', '-DFOREGROUND'],
    port,
    dir,
    {
      env,
      name: 'apache2',
    },
  );
  return server.close;
}

// ---- lighttpd -----------------------------------------------------------------------------------------

interface LighttpdCase {
  /** conf-available files switched on as `lighty-enable-mod` does, besides Debian's default ones. */
  enable?: string[];
  /** Lines of those files replaced (`from` → `to`), as an administrator edits them. */
  edits?: [string, string][];
  /** Configuration appended after the enabled files. */
  extra?: string;
  files?: Record<string, string>;
}

const lighttpdWebdav = (readonly: boolean) => `$HTTP["url"] =~ "^/dav($|/)" {
  webdav.activate = "enable"
  ${readonly ? '' : '#'}webdav.is-readonly = "enable"
}`;

const lighttpdCases: Record<string, LighttpdCase> = {
  'lighttpd-debian': {},
  'lighttpd-dir-listing': {
    enable: ['10-dir-listing.conf'],
    files: {
      'index.html': page('Globex downloads', '<h1>Downloads</h1><a href="/files/">All files</a>'),
      'files/price-list-2024.csv': 'item,price\nwidget,3\n',
      'files/brochure.txt': 'Globex: we make things.\n',
    },
  },
  'lighttpd-status': {
    enable: ['10-status.conf'],
    edits: [
      ['# status.status-url = "/server-status"', 'status.status-url = "/server-status"'],
      ['# status.config-url = "/server-config"', 'status.config-url = "/server-config"'],
      ['# status.statistics-url = "/server-statistics"', 'status.statistics-url = "/server-statistics"'],
    ],
  },
  'lighttpd-webdav': {
    enable: ['10-webdav.conf'],
    extra: lighttpdWebdav(false),
    files: { 'dav/meeting-notes.txt': 'Monday: planning\n' },
  },
  'lighttpd-webdav-readonly': {
    enable: ['10-webdav.conf'],
    extra: lighttpdWebdav(true),
    files: { 'dav/meeting-notes.txt': 'Monday: planning\n' },
  },
};

const isFolder = (file: string) => {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
};

/** Every folder under /usr/share/javascript without an index page, as lighttpd's /javascript alias lists it. */
export function javascriptFolders(): string[] {
  const out: string[] = [];
  const walk = (disk: string, url: string) => {
    const entries = readdirSync(disk, { withFileTypes: true });
    if (!entries.some((e) => /^index\.(html|php)$/.test(e.name))) {
      out.push(url);
    }
    for (const entry of entries) {
      // A symbolic link is followed as lighttpd follows it: when it leads to a folder.
      if (entry.isDirectory() || (entry.isSymbolicLink() && isFolder(path.join(disk, entry.name)))) {
        walk(path.join(disk, entry.name), `${url}${entry.name}/`);
      }
    }
  };
  walk('/usr/share/javascript', '/javascript/');
  return out.sort();
}

async function startLighttpd(dir: string, port: number, site: LighttpdCase): Promise<() => Promise<void>> {
  const www = path.join(dir, 'www');
  await mkdir(www, { recursive: true });
  await cp('/usr/share/lighttpd/index.html', path.join(www, 'index.lighttpd.html'));
  await writeTree(www, site.files ?? {});
  if (existsSync(path.join(www, 'dav'))) {
    await chown(path.join(www, 'dav'), 33, 33);
  }
  // A fresh install enables 99-unconfigured (its placeholder page as the index) besides the alias.
  const enabled = [
    ...new Set([
      ...readdirSync('/etc/lighttpd/conf-enabled').filter((f) => f.endsWith('.conf')),
      '99-unconfigured.conf',
      ...(site.enable ?? []),
    ]),
  ].sort();
  const parts: string[] = [];
  for (const name of enabled) {
    let text = await readFile(path.join('/etc/lighttpd/conf-available', name), 'utf8');
    for (const [from, to] of site.edits ?? []) {
      text = text.replace(from, to);
    }
    parts.push(`# ${name}\n${text.replaceAll('/var/cache/lighttpd', dir)}`);
  }
  const debian = await readFile('/etc/lighttpd/lighttpd.conf', 'utf8');
  const includes = /^include "\/etc\/lighttpd\/conf-enabled\/\*\.conf"$/m;
  if (!includes.test(debian)) {
    throw new Error("Debian's lighttpd.conf changed: no conf-enabled include to replace");
  }
  const main = debian
    .replace(/^server\.document-root\s*=.*$/m, `server.document-root = "${www}"`)
    .replace(/^server\.upload-dirs\s*=.*$/m, `server.upload-dirs = ( "${dir}" )`)
    .replace(/^server\.errorlog\s*=.*$/m, `server.errorlog = "${dir}/error.log"`)
    .replace(/^server\.pid-file\s*=.*$/m, `server.pid-file = "${dir}/lighttpd.pid"`)
    .replace(/^server\.port\s*=.*$/m, `server.port = ${port}\nserver.bind = "127.0.0.1"`)
    // use-ipv6.pl would add a listener on [::]; the corpus listens on 127.0.0.1 only.
    .replace(/^include_shell "\/usr\/share\/lighttpd\/use-ipv6\.pl.*$/m, '')
    .replace(includes, () => parts.join('\n'));
  await writeFile(path.join(dir, 'lighttpd.conf'), `${main}\n${site.extra ?? ''}\n`);
  await chown(dir, 33, 33);
  await chmod(dir, 0o755);
  const server = await runServer(
    '/usr/sbin/lighttpd',
    ['-D', '-f', path.join(dir, 'lighttpd.conf')],
    port,
    dir,
    {
      name: 'lighttpd',
    },
  );
  return server.close;
}

// ---- the fixtures -------------------------------------------------------------------------------------

const cases: OutsideWebCase[] = [
  'nginx-debian',
  'nginx-autoindex',
  'nginx-dav',
  'nginx-dav-limited',
  'nginx-add-header',
  'nginx-cors',
  'nginx-stub-status',
  'apache-debian',
  'apache-indexes',
  'apache-trace',
  'apache-dav',
  'apache-dav-auth',
  'apache-info',
  'apache-hardened',
  'lighttpd-debian',
  'lighttpd-dir-listing',
  'lighttpd-status',
  'lighttpd-webdav',
  'lighttpd-webdav-readonly',
];
const portOf = (name: OutsideWebCase) => 19451 + cases.indexOf(name);

async function startCase(name: OutsideWebCase): Promise<RunningFixture> {
  const port = portOf(name);
  const dir = await tempDir(`outside-web-${name}`);
  const target = `http://127.0.0.1:${port}`;
  try {
    const close = name.startsWith('nginx-')
      ? await startNginx(dir, port, nginxCases(dir)[name]!)
      : name.startsWith('apache-')
        ? await startApache(dir, port, apacheCases(dir)[name]!)
        : await startLighttpd(dir, port, lighttpdCases[name]!);
    const planted: PlantedIssue[] = outsideWebPlanted(
      name,
      name === 'lighttpd-dir-listing' ? javascriptFolders() : [],
    );
    return { target, planted, close };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Server-wide answers (transport, headers, version) form one class; places and methods the other. */
const HEADER_RULES = /^web\.(transport|header|clickjacking|disclosure\.server-version)/;

export const fixtures: DetectionFixture[] = cases.map((name) => ({
  name: `outside web ${name} (:${portOf(name)})`,
  classOf: (issue) => (HEADER_RULES.test(issue.rule_id) ? 'outside-web-headers' : 'outside-web'),
  start: () => startCase(name),
  scan: (f) => runScan('webapp', { target: f.target, mode: 'local', allowIntrusive: true }),
  tools: [wapiti, nmapHttp, whatweb],
}));
