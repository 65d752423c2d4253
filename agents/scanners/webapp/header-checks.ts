// Response-header checks on crawled HTML pages: security headers, clickjacking, cookies, version
// disclosure and mixed content. One finding per rule, located at the first page that shows it, with
// the number of affected pages in the evidence.
//
// Where a finding is filed is part of its identity across scans (pipeline/fingerprint.ts hashes rule and
// location). A page reached through redirects is filed at the URL the crawl asked for, not where it
// landed: a site that moves every visitor to a fresh random URL (`/` → `/r/8f3a…`) would otherwise file
// the same missing header at a new place on every scan, and it would churn as "fixed" and "new". This is
// done here rather than by the fingerprint, which knows nothing of what a location means to a scanner
// (and cannot tell a random path segment from a real one), and whose hash is stored: changing it would
// re-identify every stored finding.
import type { Finding } from '../../../shared/findings.ts';
import { cookiesSet, header } from '../core/http-client.ts';
import { technologyNote } from './components/technology-note.ts';
import type { Page } from './crawl.ts';
import { webappFinding } from './rules.ts';
import type { WebappRuleId } from './rules.ts';

type PageCheck = (page: Page) => string | null;

/** The URL a finding about `page`'s answer is filed at: the one the crawl asked for. */
const filedAt = (page: Page) => (page.requested ?? page.url).href;

/** What else the evidence must say about the answer: where it landed, and what was wrong with it. */
function answerNote(page: Page): string {
  const notes = [
    page.requested ? `answered at ${page.url.href} after a redirect` : '',
    page.response.malformed ? `malformed answer: ${page.response.malformed.slice(0, 3).join('; ')}` : '',
    page.response.cutShort ? `body cut short (${page.response.cutShort})` : '',
  ].filter(Boolean);
  return notes.length > 0 ? ` [${notes.join('; ')}]` : '';
}

const versionPattern = /\d+\.\d+/;

/**
 * Browsers read the first value of X-Content-Type-Options (Fetch: "get, decode, and split"), so a header
 * sent twice (by the app and by its proxy) still counts.
 */
export const nosniff = (value: string | undefined) =>
  (value ?? '').split(',')[0]!.trim().toLowerCase() === 'nosniff';

const pageChecks: Partial<Record<WebappRuleId, PageCheck>> = {
  'web.header.csp-missing': (page) =>
    header(page.response, 'content-security-policy') ? null : 'no Content-Security-Policy header',
  'web.header.hsts-missing': (page) =>
    page.url.protocol === 'https:' &&
    !/max-age=\d+/i.test(header(page.response, 'strict-transport-security') ?? '')
      ? 'no Strict-Transport-Security header with max-age'
      : null,
  'web.header.nosniff-missing': (page) =>
    nosniff(header(page.response, 'x-content-type-options')) ? null : 'X-Content-Type-Options is not nosniff',
  'web.header.referrer-policy-missing': (page) =>
    header(page.response, 'referrer-policy') ? null : 'no Referrer-Policy header',
  'web.header.permissions-policy-missing': (page) =>
    header(page.response, 'permissions-policy') ? null : 'no Permissions-Policy header',
  'web.clickjacking': (page) => {
    const xfo = (header(page.response, 'x-frame-options') ?? '').toUpperCase();
    const csp = header(page.response, 'content-security-policy') ?? '';
    return /DENY|SAMEORIGIN/.test(xfo) || /frame-ancestors/i.test(csp)
      ? null
      : 'neither X-Frame-Options nor CSP frame-ancestors';
  },
  'web.disclosure.server-version': (page) => {
    const server = header(page.response, 'server');
    return server && versionPattern.test(server)
      ? `Server: ${server}${technologyNote(page, 'server header', true)}`
      : null;
  },
  'web.disclosure.powered-by': (page) => {
    const powered = header(page.response, 'x-powered-by');
    return powered ? `X-Powered-By: ${powered}${technologyNote(page, 'x-powered-by header')}` : null;
  },
  'web.disclosure.generator': (page) =>
    page.facts?.generator && versionPattern.test(page.facts.generator)
      ? `<meta name="generator" content="${page.facts.generator}">${technologyNote(page, 'meta generator')}`
      : null,
  'web.mixed-content': (page) => {
    const insecure =
      page.url.protocol === 'https:'
        ? (page.facts?.resources ?? []).filter((url) => url.protocol === 'http:')
        : [];
    return insecure.length > 0
      ? `loads over HTTP: ${insecure
          .slice(0, 3)
          .map((url) => url.href)
          .join(', ')}`
      : null;
  },
};

interface Cookie {
  name: string;
  attributes: Set<string>;
  sameSite: string | null;
}

function parseSetCookie(line: string): Cookie {
  const [pair = '', ...attrs] = line.split(';');
  const attributes = new Set(attrs.map((attr) => attr.split('=')[0]!.trim().toLowerCase()));
  const sameSite = attrs.map((attr) => attr.trim()).find((attr) => /^samesite=/i.test(attr));
  return {
    name: pair.split('=')[0]!.trim(),
    attributes,
    sameSite: sameSite ? sameSite.split('=')[1]!.trim() : null,
  };
}

function cookieFindings(pages: Page[]): Finding[] {
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (const page of pages) {
    const problems = new Map<WebappRuleId, string[]>();
    for (const { line, url, earlier } of cookiesSet(page.response)) {
      const cookie = parseSetCookie(line);
      // A cookie an earlier answer set (a redirect hop) is named with the URL that set it.
      const named =
        earlier && url !== page.response.url ? `${cookie.name} (set by ${url.slice(0, 200)})` : cookie.name;
      const flag = (rule: WebappRuleId) => {
        if (!reported.has(`${rule}:${cookie.name}`)) {
          reported.add(`${rule}:${cookie.name}`);
          problems.set(rule, [...(problems.get(rule) ?? []), named]);
        }
      };
      // Secure only makes sense when the site has HTTPS; plain-HTTP sites get web.transport.cleartext.
      if (url.startsWith('https:') && !cookie.attributes.has('secure')) {
        flag('web.cookie.secure-missing');
      }
      if (!cookie.attributes.has('httponly')) {
        flag('web.cookie.httponly-missing');
      }
      if (!cookie.sameSite || !/^(lax|strict|none)$/i.test(cookie.sameSite)) {
        flag('web.cookie.samesite-missing');
      }
    }
    for (const [rule, names] of problems) {
      findings.push(
        webappFinding(rule, {
          location: filedAt(page),
          evidence: `Set-Cookie for ${names.join(', ')}${answerNote(page)}`,
        }),
      );
    }
  }
  return findings;
}

export function headerFindings(pages: Page[]): Finding[] {
  const htmlPages = pages.filter((page) => page.facts && page.response.status < 400);
  const findings: Finding[] = [];
  for (const [rule, check] of Object.entries(pageChecks) as [WebappRuleId, PageCheck][]) {
    const hits = htmlPages.flatMap((page) => {
      const evidence = check(page);
      return evidence ? [{ page, evidence }] : [];
    });
    const first = hits[0];
    if (first) {
      const scope = hits.length > 1 ? ` (on ${hits.length} of ${htmlPages.length} pages)` : '';
      findings.push(
        webappFinding(rule, {
          location: filedAt(first.page),
          evidence: `${first.evidence}${scope}${answerNote(first.page)}`,
        }),
      );
    }
  }
  return [...findings, ...cookieFindings(pages)];
}
