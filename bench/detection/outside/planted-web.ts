// The planted problems of the outside web corpus (bench/detection/classes/outside-web.ts), written from
// each server's configuration (Debian's as installed, with the one switch the case names flipped, or the
// server's own documented example) and checked against what wapiti, nmap's http-* scripts and whatweb
// reported on it, before our scanner was run on any of them. It is never used by the unit tests.
//
// Locations are where a finding about the problem is filed: a server-wide header at the first page that
// shows it, a listing or a WebDAV folder at the folder, a status page at its path.
import type { PlantedIssue } from '../../../tests/fixtures/planted.ts';

export type OutsideWebCase =
  | 'nginx-debian'
  | 'nginx-autoindex'
  | 'nginx-dav'
  | 'nginx-dav-limited'
  | 'nginx-add-header'
  | 'nginx-cors'
  | 'nginx-stub-status'
  | 'apache-debian'
  | 'apache-indexes'
  | 'apache-trace'
  | 'apache-dav'
  | 'apache-dav-auth'
  | 'apache-info'
  | 'apache-hardened'
  | 'lighttpd-debian'
  | 'lighttpd-dir-listing'
  | 'lighttpd-status'
  | 'lighttpd-webdav'
  | 'lighttpd-webdav-readonly';

const at = (location: string, ...rules: string[]): PlantedIssue[] =>
  rules.map((rule) => ({ rule_id: rule, location }));

/** No security header at all: what every server here sends unless its case adds them. */
const NO_HEADERS = [
  'web.header.csp-missing',
  'web.header.nosniff-missing',
  'web.header.referrer-policy-missing',
  'web.header.permissions-policy-missing',
  'web.clickjacking',
];
/**
 * The plain-HTTP site with no security header, naming its server's version in `Server`: Debian's nginx
 * (server_tokens on), Apache (ServerTokens OS: `Apache/2.4.x (Debian)`) and lighttpd all do by default.
 */
const DEFAULTS = [...at('/', 'web.transport.cleartext', ...NO_HEADERS, 'web.disclosure.server-version')];
/**
 * Debian's Apache enables mod_status with `Require local`: from the scanner's address, on the same host,
 * /server-status answers in full (as it does to nmap's http-apache-server-status). Counted as a problem
 * the scan can see; on a host scanned over the network it would not be one.
 */
const APACHE = [...DEFAULTS, ...at('/server-status', 'web.exposed.server-status')];

/**
 * The folders Debian's `/javascript` alias (lighttpd's 90-javascript-alias, enabled by default) lists
 * once dir-listing is on: every folder under /usr/share/javascript without an index page. The set
 * depends on the libjs-* packages installed, so it is read from the disk when the case starts.
 */
export type JavascriptFolders = string[];

export function outsideWebPlanted(
  name: OutsideWebCase,
  javascriptFolders: JavascriptFolders = [],
): PlantedIssue[] {
  switch (name) {
    case 'nginx-debian':
      return DEFAULTS;
    // ngx_http_autoindex_module's example (`autoindex on;`) on a download server without an index page.
    case 'nginx-autoindex':
      return [
        ...DEFAULTS,
        ...['/', '/releases/', '/manuals/'].flatMap((p) => at(p, 'web.directory-listing')),
      ];
    // ngx_http_dav_module's example without its `limit_except GET` block: anyone may PUT, DELETE, MKCOL,
    // COPY and MOVE anywhere. No PROPFIND (that is the third-party dav_ext module).
    case 'nginx-dav':
      return [...DEFAULTS, ...at('/', 'web.webdav.write')];
    // The same example as documented, writes allowed to one network only: must stay silent on writes.
    case 'nginx-dav-limited':
      return DEFAULTS;
    // A hardening snippet's add_header lines at server level (server_tokens off), and a location with an
    // add_header of its own (Cache-Control): add_header is inherited only by levels that have none, so
    // everything under /blog/ is served with none of the security headers.
    case 'nginx-add-header':
      return [...at('/', 'web.transport.cleartext'), ...at('/blog/', ...NO_HEADERS)];
    // enable-cors.org's nginx snippet on /api/ (`*`), and the answer widely copied for APIs with cookies
    // on /account/ (the request's Origin echoed, with credentials). Added after our scanner ran, which
    // was right: an echoed Origin is `null` too when a sandboxed page sends it.
    case 'nginx-cors':
      return [
        ...DEFAULTS,
        ...at('/api/products.json', 'web.cors.wildcard'),
        ...at('/account/profile.json', 'web.cors.reflected-origin', 'web.cors.null-origin'),
      ];
    // ngx_http_stub_status_module's example, `location = /basic_status { stub_status; }`, unrestricted.
    case 'nginx-stub-status':
      return [...DEFAULTS, ...at('/basic_status', 'web.exposed.server-status')];
    // Debian's Apache as installed, its default page in /var/www/html.
    case 'apache-debian':
      return APACHE;
    // Debian's `Options Indexes` on /var/www: folders without an index page are listed.
    case 'apache-indexes':
      return [...APACHE, ...['/uploads/', '/backup/'].flatMap((p) => at(p, 'web.directory-listing'))];
    // security.conf's `TraceEnable Off` switched to the `On` it offers commented.
    case 'apache-trace':
      return [...APACHE, ...at('/', 'web.method.trace')];
    // mod_dav's example (Alias /uploads, Dav On) without its authentication lines.
    case 'apache-dav':
      return [...APACHE, ...at('/uploads/', 'web.webdav.write', 'web.webdav.listing')];
    // mod_dav's example as documented: reads for all, every other method for the admin user (Digest).
    case 'apache-dav-auth':
      return APACHE;
    // `a2enmod info`: Debian's info.conf, `Require local` like status.conf.
    case 'apache-info':
      return [...APACHE, ...at('/server-info', 'web.exposed.server-status')];
    // Debian's own hardening switches: ServerTokens Prod, ServerSignature Off, the two Header lines
    // security.conf leaves commented (nosniff; CSP frame-ancestors 'self'), mod_status off, no Indexes.
    case 'apache-hardened':
      return at(
        '/',
        'web.transport.cleartext',
        'web.header.referrer-policy-missing',
        'web.header.permissions-policy-missing',
      );
    // Debian's lighttpd as installed (its placeholder page, the /javascript alias).
    case 'lighttpd-debian':
      return DEFAULTS;
    // `lighty-enable-mod dir-listing` (server.dir-listing = "enable"): every folder without an index,
    // the /javascript alias's folders among them.
    case 'lighttpd-dir-listing':
      return [
        ...DEFAULTS,
        ...['/files/', ...javascriptFolders].flatMap((p) => at(p, 'web.directory-listing')),
      ];
    // `lighty-enable-mod status` with the three URLs 10-status.conf leaves commented switched on. The
    // statistics page answers 204 with nothing: no module of this server registers a counter.
    case 'lighttpd-status':
      return [
        ...DEFAULTS,
        ...['/server-status', '/server-config'].flatMap((p) => at(p, 'web.exposed.server-status')),
      ];
    // lighttpd's own webdav.conf for /dav with `webdav.is-readonly` left commented ("By default the webdav
    // url is writable").
    case 'lighttpd-webdav':
      return [...DEFAULTS, ...at('/dav/', 'web.webdav.write', 'web.webdav.listing')];
    // The same, read-only as the file suggests: PROPFIND still lists the folder, nothing can be written.
    case 'lighttpd-webdav-readonly':
      return [...DEFAULTS, ...at('/dav/', 'web.webdav.listing')];
  }
}
