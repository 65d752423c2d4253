// Accounts' passwords or password hashes in what the app answers a logged-in user (passive: nothing is
// sent). No client ever needs one: an answer that carries them (a users API that serialises whole records, a
// profile with its hash) hands every session, and any script injected into the page, material for offline
// cracking. What anyone gets without logging in is `web.api.personal-data`'s; this judges the JSON the app
// fetched only once logged in, and the JSON pages a logged-in crawl read. Redacted: the fields, the count and
// the formats the values show, never a value.
import type { Finding } from '../../../shared/findings.ts';
import type { HttpResponse } from '../core/http-client.ts';
import type { ApiCall } from './browser/api-calls.ts';
import type { Page } from './crawl.ts';
import { passwordsIn } from './discovery/personal-data.ts';
import { webappFinding } from './rules.ts';
import { sessionOnly } from './spa/api-headers.ts';
import { jsonBody } from './write/marker.ts';

/** Findings per scan: one per place that answered with passwords. */
const maxFindings = 5;
/** The longest answer read. */
const maxBodyChars = 512 * 1024;

function jsonOf(response: HttpResponse): unknown {
  const ok = response.status >= 200 && response.status < 300;
  return ok && response.body.length <= maxBodyChars ? jsonBody(response) : undefined;
}

/** `calls` are the app's API calls; `pages` the crawl's, read logged in when `loggedIn`. */
export function passwordExposureFindings(calls: ApiCall[], pages: Page[], loggedIn: boolean): Finding[] {
  const answers: { what: string; place: string; response: HttpResponse }[] = [
    ...sessionOnly(calls).map((c) => ({
      what: `${c.method} ${c.url.pathname}`,
      place: `${c.url.origin}${c.url.pathname}`,
      response: c.response,
    })),
    ...(loggedIn ? pages : []).map((p) => {
      const url = p.requested ?? p.url;
      return { what: `GET ${url.pathname}`, place: `${url.origin}${url.pathname}`, response: p.response };
    }),
  ];
  const filed = new Map<string, Finding>();
  for (const { what, place, response } of answers) {
    if (filed.size >= maxFindings || filed.has(place)) {
      continue;
    }
    const json = jsonOf(response);
    const found = json === undefined ? null : passwordsIn(json);
    if (found) {
      filed.set(
        place,
        webappFinding('web.api.password-hashes', {
          location: place,
          evidence: `${what}, in the login session: ${found.evidence}`,
        }),
      );
    }
  }
  return [...filed.values()];
}
