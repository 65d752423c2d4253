// Password-reset links whose token anyone can compute: a token derived from the account's own name (its
// MD5, SHA-1 or SHA-256, its base64 or hex, the name itself) lets anyone reset any account whose name they
// know. Black box, the scan knows one account name: its own login's. It looks for the page a reset link
// opens (the crawl's paths that read as one, then a short list of the usual ones), and asks it, without the
// session, for its own account with each derived token and with a wrong one: a page that opens its
// new-password form for a derived token and not for the wrong one takes a token anyone can compute.
// Only GET requests that open the form: nothing is submitted, no password changes.
import { createHash, randomBytes } from 'node:crypto';

import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient, HttpResponse } from '../core/http-client.ts';
import { webappFinding } from './rules.ts';

/** Where reset links commonly lead, tried when the crawl named none. */
const commonPaths = [
  '/resetpw',
  '/reset',
  '/reset-password',
  '/reset_password',
  '/resetpassword',
  '/password/reset',
  '/password-reset',
  '/account/reset',
  '/auth/reset',
  '/users/password/edit',
];
const userParams = ['login', 'username', 'user', 'email'];
const tokenParams = ['token', 'key', 'code'];
/** Reset pages judged per scan, and paths asked for at most. */
const limits = { maxPages: 2, maxPaths: 14 };

/** The tokens a careless app derives from an account name. */
export function derivedTokens(name: string): { how: string; token: string }[] {
  const hash = (algorithm: string) => createHash(algorithm).update(name).digest('hex');
  return [
    { how: 'md5', token: hash('md5') },
    { how: 'sha1', token: hash('sha1') },
    { how: 'sha256', token: hash('sha256') },
    { how: 'base64', token: Buffer.from(name).toString('base64') },
    { how: 'base64url', token: Buffer.from(name).toString('base64url') },
    { how: 'hex', token: Buffer.from(name).toString('hex') },
    { how: 'the name itself', token: name },
  ];
}

/** Whether an answer is a page with a new-password form. */
export function opensPasswordForm(response: HttpResponse | null): boolean {
  return (
    response !== null &&
    response.status >= 200 &&
    response.status < 300 &&
    /<input\b[^>]*\btype\s*=\s*["']?password\b/i.test(response.body.slice(0, 256 * 1024))
  );
}

const withQuery = (page: URL, query: Record<string, string>) => {
  const url = new URL(page);
  url.search = new URLSearchParams(query).toString();
  return url;
};

/**
 * `crawled` are the site's known URLs (a path that reads as a reset page is tried first); `account` the
 * scan's own login name.
 */
export async function resetTokenFindings(
  client: HttpClient,
  start: URL,
  crawled: readonly URL[],
  account: string,
  tick: (done: number, total: number) => void,
): Promise<Finding[]> {
  const ask = (url: URL) => client.tryRequest(url, { anonymous: true });
  const named = crawled
    .filter((u) => u.origin === start.origin && /reset|recover/i.test(u.pathname))
    .map((u) => u.pathname);
  const paths = [...new Set([...named, ...commonPaths])].slice(0, limits.maxPaths);
  // What the site answers for a path it does not have: a reset page must answer otherwise.
  const missing = await ask(new URL(`/vigil-${randomBytes(4).toString('hex')}`, start));
  const pages: URL[] = [];
  for (const [i, path] of paths.entries()) {
    const page = new URL(path, start);
    const answer = await ask(page);
    if (answer && ![404, 405, 410].includes(answer.status) && answer.status !== missing?.status) {
      pages.push(page);
    }
    tick(i + 1, paths.length * 2);
    if (pages.length >= limits.maxPages) {
      break;
    }
  }
  const tokens = derivedTokens(account);
  for (const [i, page] of pages.entries()) {
    for (const userParam of userParams) {
      for (const tokenParam of tokenParams) {
        const wrong = await ask(
          withQuery(page, { [userParam]: account, [tokenParam]: randomBytes(16).toString('hex') }),
        );
        if (opensPasswordForm(wrong)) {
          // Any token opens the form here: nothing to learn from this pair of names.
          continue;
        }
        for (const { how, token } of tokens) {
          const url = withQuery(page, { [userParam]: account, [tokenParam]: token });
          if (opensPasswordForm(await ask(url))) {
            const refused = wrong ? `HTTP ${wrong.status}` : 'no answer';
            return [
              webappFinding('web.auth.predictable-reset-token', {
                location: `${page.origin}${page.pathname}`,
                evidence: `GET ${page.pathname}?${userParam}=<the scan's login>&${tokenParam}=${how}(login) opened a new-password form (HTTP 200), where a random token got ${refused}: the reset token is computed from the account name, so anyone can reset any account they can name`,
              }),
            ];
          }
        }
      }
    }
    tick(paths.length + i + 1, paths.length * 2);
  }
  return [];
}
