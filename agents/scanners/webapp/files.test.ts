import { describe, expect, it } from 'vitest';

import { findStackTrace, versionsNamed } from '../core/stack-trace.ts';
import type { HttpResponse } from '../core/http-client.ts';
import { headerPaths, soundsSensitive } from './advertised-paths.ts';
import { copyNames, siteNames } from './backup-files.ts';
import type { Page } from './crawl.ts';
import { archiveKind, looksSqlDump } from './file-signatures.ts';
import { parseHtml } from './html.ts';
import { parseRobots, parseSitemap } from './site-maps.ts';
import { nameShape, sameAnswer } from './soft404.ts';
import { statusPageProbes } from './status-pages.ts';
import { xmlElementTexts } from './xml-text.ts';

const response = (status: number, body: string, headers: Record<string, string> = {}): HttpResponse => ({
  url: 'http://site.test/',
  status,
  headers,
  body,
  redirects: [],
});

const pageAt = (href: string, headers: Record<string, string>, body = '<html><body></body></html>'): Page => {
  const url = new URL(href);
  return { url, response: response(200, body, headers), facts: parseHtml(body, url), depth: 0 };
};

describe('not-found oracle', () => {
  it('gives each name its shape: extension chain, leading dot, trailing ~, directory', () => {
    expect(nameShape('search.php.bak')).toBe('.php.bak');
    expect(nameShape('.search.php.swp')).toBe('.+.php.swp');
    expect(nameShape('search.php~')).toBe('.php~');
    expect(nameShape('backup.tar.gz')).toBe('.tar.gz');
    expect(nameShape('Copy of index.php')).toBe('.php');
    expect(nameShape('docs/')).toBe('/');
  });

  it('takes a catch-all page that echoes the requested name for the same answer', () => {
    const shell = (name: string) => `<html><body><div data-route="/${name}">app</div><p>v3</p></body></html>`;
    const a = new URL('http://site.test/backup.sql');
    const b = new URL('http://site.test/vigil0a1b2c.sql');
    expect(
      sameAnswer(response(200, shell('backup.sql')), a, response(200, shell('vigil0a1b2c.sql')), b),
    ).toBe(true);
    expect(sameAnswer(response(200, 'CREATE TABLE t (id int);'), a, response(404, 'Not found'), b)).toBe(
      false,
    );
    expect(
      sameAnswer(response(302, '', { location: '/login' }), a, response(302, '', { location: '/login' }), b),
    ).toBe(true);
  });
});

describe('robots.txt and sitemaps', () => {
  it('reads paths, wildcard prefixes and sitemaps, and refuses an HTML catch-all', () => {
    const robots = parseRobots(
      'User-agent: *\nDisallow: /old-site/\nDisallow: /*.php$\nAllow: /public/\nDisallow: /tmp/*/cache # note\nSitemap: https://site.test/sm.xml\n',
    );
    expect(robots).toEqual({
      paths: ['/old-site/', '/public/', '/tmp/'],
      disallowed: ['/old-site/', '/tmp/'],
      sitemaps: ['https://site.test/sm.xml'],
    });
    expect(parseRobots('<!doctype html><html><body>Disallow: /x</body></html>')).toBeNull();
  });

  it('reads <loc> from url sets and sitemap indexes', () => {
    expect(
      parseSitemap(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://site.test/a?x=1&amp;y=2 </loc></url></urlset>',
      ),
    ).toEqual({ locs: ['https://site.test/a?x=1&y=2'], isIndex: false });
    expect(parseSitemap('<sitemapindex><sitemap><loc>/s1.xml</loc></sitemap></sitemapindex>').isIndex).toBe(
      true,
    );
  });

  it('calls a path sensitive by its words, not by substrings', () => {
    expect(soundsSensitive('/old-site/')).toBe(true);
    expect(soundsSensitive('/db_backup/')).toBe(true);
    expect(soundsSensitive('/folder/')).toBe(false);
    expect(soundsSensitive('/cgi-bin/')).toBe(false);
  });
});

describe('backup names and file signatures', () => {
  it('lists the copies nmap and wapiti try, and more', () => {
    const names = copyNames('search.php');
    for (const name of [
      'search.php~',
      'search.php.bak',
      'search.bak',
      '.search.php.swp',
      'Copy of search.php',
      'search copy.php',
      'search.php.1',
      'search.php.~1~',
      '#search.php#',
      'search.zip',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('names the site after its host, else after its start page title', () => {
    expect(siteNames(new URL('https://www.acme.co/'), [])).toEqual(['www.acme.co', 'acme.co', 'acme']);
    const home = pageAt(
      'http://127.0.0.1:8080/',
      {},
      '<html><head><title>Globex Portal</title></head></html>',
    );
    expect(siteNames(new URL('http://127.0.0.1:8080/'), [home])).toEqual(['globex']);
  });

  it('knows archives by their magic numbers and dumps by their statements', () => {
    expect(archiveKind('PK\u0003\u0004rest')).toBe('zip archive');
    expect(archiveKind('\u001f\u008b\u0008\u0000')).toBe('gzip archive');
    expect(archiveKind(`${'\u0000'.repeat(257)}ustar\u000000`)).toBe('tar archive');
    expect(archiveKind('<html>')).toBeNull();
    expect(looksSqlDump('-- MySQL dump 10.13\nCREATE TABLE `t` (id int);')).toBe(true);
    expect(
      looksSqlDump(
        '<!doctype html><html><body><code>CREATE TABLE t; INSERT INTO t VALUES (1)</code></body></html>',
      ),
    ).toBe(false);
  });
});

describe('status pages', () => {
  const signature = (path: string) =>
    statusPageProbes(new URL('http://site.test/')).find((p) => p.url.pathname === path)!.signature;

  it('recognises each page by its own format', () => {
    expect(
      signature('/nginx_status')('Active connections: 1 \nserver accepts handled requests\n 1 1 1 \n'),
    ).toBe(true);
    expect(signature('/fpm-status')('pool:                 www\nprocess manager:      static\n')).toBe(true);
    expect(signature('/metrics')('# HELP up Up.\n# TYPE up gauge\nup 1\n')).toBe(true);
    expect(signature('/metrics')('<!doctype html><html><body># HELP up</body></html>')).toBe(false);
    expect(signature('/actuator/heapdump')('JAVA PROFILE 1.0.2\u0000')).toBe(true);
    expect(signature('/actuator/mappings')('{"status":"UP"}')).toBe(false);
  });
});

describe('header-advertised paths', () => {
  it('takes same-origin paths from Link and custom headers, skips versions, styles and tokens', () => {
    const page = pageAt('http://site.test/', {
      link: '</internal/api-docs/>; rel="service-desc", </style.css>; rel=stylesheet',
      server: 'Apache/2.4.62 (Debian)',
      'x-debug-token-link': 'http://site.test/_profiler/8f3a2c',
      'x-elsewhere': 'https://cdn.example/x/',
    });
    expect(
      headerPaths([page], new URL('http://site.test/')).map((h) => `${h.header} ${h.url.pathname}`),
    ).toEqual(['link /internal/api-docs/', 'x-debug-token-link /_profiler/']);
  });
});

describe('error pages and WebDAV answers', () => {
  it('finds traces in JSON error bodies and names versions', () => {
    expect(
      findStackTrace('{"trace":"java.lang.IllegalStateException: x\\n\\tat com.acme.A.b(A.java:12)\\n"}'),
    ).toMatch(/A\.java:12/);
    expect(findStackTrace('<p>A problem occurred in a Python script.  Here is')).toBeTruthy();
    // Express's errorhandler (an HTML list) and finalhandler (<br> and &nbsp;), as they print a trace.
    expect(
      findStackTrace(
        '<ul id="stacktrace"><li> &nbsp; &nbsp;at decodeURIComponent (&lt;anonymous&gt;)</li><li> &nbsp; &nbsp;at decode_param (/srv/app/node_modules/express/lib/router/layer.js:172:12)</li></ul>',
      ),
    ).toMatch(/layer\.js:172:12/);
    expect(
      findStackTrace(
        '<pre>TypeError: bad id<br> &nbsp; &nbsp;at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)</pre>',
      ),
    ).toMatch(/layer\.js:95:5/);
    // A page that only talks about a list of places is no trace.
    expect(
      findStackTrace('<pre>TypeError: bad id<br> &nbsp; &nbsp;at /srv/app/routes/orders.js:12:9</pre>'),
    ).toMatch(/orders\.js:12:9/);
    // A page that only lists places and times is no trace.
    expect(
      findStackTrace('<ul><li>at Home (London)</li><li>at Work: 3:4</li><li>at 10:30:45</li></ul>'),
    ).toBeNull();
    expect(versionsNamed('<h3>Apache Tomcat/9.0.70</h3> ASP.NET Version:4.8.4')).toEqual([
      'Apache Tomcat/9.0.70',
      'ASP.NET Version:4.8.4',
    ]);
  });

  it('reads hrefs of a multistatus answer whatever its namespace prefix', () => {
    expect(
      xmlElementTexts(
        '<D:multistatus xmlns:D="DAV:"><D:response><D:href>/dav/</D:href></D:response><D:response><D:href>/dav/a.txt</D:href></D:response></D:multistatus>',
        'href',
      ),
    ).toEqual({ texts: ['/dav/', '/dav/a.txt'], root: 'multistatus' });
  });
});
