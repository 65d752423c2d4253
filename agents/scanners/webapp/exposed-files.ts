// Exposed files, listings and pages, under every directory the scan knows of: crawled pages, form
// actions, robots.txt and sitemap entries, listings and header-advertised paths. Every candidate goes
// through runFileProbes: it must answer 200, carry its file type's signature (.git/HEAD reads
// "ref: refs/...", a dump holds CREATE TABLE, an archive its magic number), and differ from the
// server's own answer for a missing name of the same shape (NotFoundOracle: SPAs, catch-all routes and
// custom 404 pages answering 200 are not files).
import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient } from '../core/http-client.ts';
import { headerPathProbes, headerPaths, robotsListed, robotsProbes } from './advertised-paths.ts';
import { backupProbes, dumpOrArchive } from './backup-files.ts';
import type { Endpoint, Page } from './crawl.ts';
import { directoriesOf, knownUrls } from './directories.ts';
import type { FileProbe } from './file-probe.ts';
import { runFileProbes } from './file-probe.ts';
import {
  archiveKind,
  looksEnvFile,
  looksHtml,
  looksSourceCode,
  looksSqlDump,
  looksVimSwap,
} from './file-signatures.ts';
import { listingFindings } from './listings.ts';
import type { WebappRuleId } from './rules.ts';
import type { SiteMaps } from './site-maps.ts';
import { NotFoundOracle } from './soft404.ts';
import { statusPageProbes } from './status-pages.ts';

interface NamedProbe {
  path: string;
  rule: WebappRuleId;
  signature: (body: string) => boolean;
}

const debugSignature =
  /Werkzeug Debugger|The debugger caught an exception|You're seeing this error because you have <code>DEBUG = True|"propertySources"\s*:|Types of profiles available|Symfony Profiler|Whoops! There was an error|Laravel.{0,40}debug/i;

/** Files checked in the root and in every directory the crawl saw. */
const fileProbes: NamedProbe[] = [
  {
    path: '.git/HEAD',
    rule: 'web.exposed.git',
    signature: (b) => /^(ref: refs\/[\w./-]+|[0-9a-f]{40})\s*$/.test(b),
  },
  {
    path: '.git/config',
    rule: 'web.exposed.git',
    signature: (b) => /^\s*\[core\]/m.test(b) && !looksHtml(b),
  },
  { path: '.env', rule: 'web.exposed.env', signature: looksEnvFile },
  { path: '.env.local', rule: 'web.exposed.env', signature: looksEnvFile },
  { path: '.env.production', rule: 'web.exposed.env', signature: looksEnvFile },
  { path: '.DS_Store', rule: 'web.exposed.ds-store', signature: (b) => b.slice(0, 12).includes('Bud1') },
  { path: 'index.php.bak', rule: 'web.exposed.backup', signature: looksSourceCode },
  { path: 'index.php~', rule: 'web.exposed.backup', signature: looksSourceCode },
  { path: '.index.php.swp', rule: 'web.exposed.backup', signature: looksVimSwap },
  { path: 'config.php.bak', rule: 'web.exposed.backup', signature: looksSourceCode },
  { path: 'wp-config.php.bak', rule: 'web.exposed.backup', signature: looksSourceCode },
  {
    path: 'backup.sql',
    rule: 'web.exposed.backup',
    signature: looksSqlDump,
  },
  {
    path: 'dump.sql',
    rule: 'web.exposed.backup',
    signature: looksSqlDump,
  },
  { path: 'backup.zip', rule: 'web.exposed.backup', signature: (b) => archiveKind(b) !== null },
  {
    path: 'phpinfo.php',
    rule: 'web.exposed.phpinfo',
    signature: (b) => /<title>phpinfo\(\)|PHP Version \d/i.test(b),
  },
  {
    path: 'info.php',
    rule: 'web.exposed.phpinfo',
    signature: (b) => /<title>phpinfo\(\)|PHP Version \d/i.test(b),
  },
];

/** Debug consoles that only make sense at the root. */
const rootProbes: NamedProbe[] = [
  { path: 'debug', rule: 'web.exposed.debug', signature: (b) => debugSignature.test(b) },
  { path: 'console', rule: 'web.exposed.debug', signature: (b) => debugSignature.test(b) },
  { path: 'actuator/env', rule: 'web.exposed.debug', signature: (b) => debugSignature.test(b) },
  { path: 'debug/pprof/', rule: 'web.exposed.debug', signature: (b) => debugSignature.test(b) },
  { path: '_profiler/', rule: 'web.exposed.debug', signature: (b) => debugSignature.test(b) },
];

// `.well-known/` is every site's (RFC 8615): a listing there shows what the server keeps beside it.
const commonDirectories = [
  'uploads/',
  'files/',
  'backup/',
  'backups/',
  'static/',
  'images/',
  'assets/',
  '.well-known/',
  // Debian's alias for /usr/share/javascript (Apache's javascript-common, lighttpd's default configuration).
  'javascript/',
];
const backupLikeName = /\.(bak|old|orig|save|backup|bck|tmp|swp|sql|gz|tgz|zip|tar|bz2|rar|7z|dump)$|~$/i;
/**
 * A static asset compressed beforehand, which servers hand to clients that accept gzip (nginx's
 * gzip_static; Debian's libjs packages ship `jquery.min.js.gz` beside `jquery.min.js`): no backup.
 */
const precompressedAsset = /\.(js|mjs|css|map|svg|html?|json|xml|txt|wasm|ico|woff2?|ttf|eot)\.gz$/i;

export interface FileHints {
  endpoints?: Endpoint[];
  siteMaps?: SiteMaps;
  /** Every place the scan found beyond the crawl (places.ts): each is looked at for a listing. */
  places?: URL[];
  /** Told the subdirectories the listings name, so that the per-place checks run in them too. */
  onListed?: (directories: URL[]) => void;
}

const extensionless = (url: URL) => !url.pathname.endsWith('/') && !/\.[^/]*$/.test(url.pathname);

export async function exposedFileFindings(
  client: HttpClient,
  origin: URL,
  pages: Page[],
  onProgress: (done: number, total: number) => void,
  { endpoints = [], siteMaps, places = [], onListed }: FileHints = {},
): Promise<Finding[]> {
  const oracle = new NotFoundOracle(client);
  const advertised = headerPaths(pages, origin);
  const known = [...knownUrls(pages, endpoints, siteMaps), ...advertised.map((a) => a.url)];
  const directories = directoriesOf(known, origin, 16);
  // A listing costs one request to look for, so it is looked for in more directories than the file probes
  // run in, and in each extensionless robots.txt path ("Disallow: /ftp" names a directory as often as not).
  const listingCandidates = directoriesOf(
    [
      ...(siteMaps?.disallowed ?? []).filter(extensionless).map((u) => new URL(`${u.pathname}/x`, u)),
      ...known,
    ],
    origin,
    48,
  );
  let done = 0;
  let total = listingCandidates.length + places.length + directories.length * 3 + commonDirectories.length;
  const tick = () => onProgress(++done, Math.max(total, done));

  const listings = await listingFindings(
    client,
    oracle,
    [
      ...new Map(
        [...listingCandidates, ...places, ...commonDirectories.map((d) => new URL(d, origin))].map((u) => [
          u.href,
          u,
        ]),
      ).values(),
    ],
    tick,
  );
  onListed?.(listings.subdirectories.map((d) => new URL('x', d)));
  const allDirectories = [
    ...directories,
    ...directoriesOf([...listings.subdirectories.map((d) => new URL('x', d))], origin, 24).filter(
      (d) => !directories.some((known) => known.href === d.href),
    ),
  ].slice(0, 24);
  const probes: FileProbe[] = [
    ...allDirectories.flatMap((dir) =>
      (dir.pathname === '/' ? [...fileProbes, ...rootProbes] : fileProbes).map((p) => ({
        url: new URL(p.path, dir),
        rule: p.rule,
        signature: p.signature,
      })),
    ),
    ...statusPageProbes(origin),
    ...robotsProbes(siteMaps?.disallowed ?? []),
    ...headerPathProbes(advertised),
    // Copies of known files before the listed files themselves: a listed `page.html~` is judged as a
    // copy of page.html when the crawl saw it.
    ...backupProbes({
      start: origin,
      pages,
      files: [
        ...endpoints.map((e) => e.url),
        ...(siteMaps?.seeds ?? []),
        ...listings.files.filter((file) => !backupLikeName.test(file.pathname)),
      ],
      directories: allDirectories,
    }),
    ...listings.files
      .filter((file) => backupLikeName.test(file.pathname) && !precompressedAsset.test(file.pathname))
      .map((url) => ({ url, rule: 'web.exposed.backup' as const, signature: dumpOrArchive(url.pathname) })),
  ];
  total = done + probes.length;
  const listed = new Set(listings.findings.map((finding) => finding.location));
  return [
    ...listings.findings,
    ...robotsListed(siteMaps?.disallowed ?? [], listed),
    ...(await runFileProbes(client, oracle, probes, tick)),
  ];
}
