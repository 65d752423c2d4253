// Cross-site request forgery of a JSON API. A page on another site cannot send `application/json` without
// the browser asking the API first (a CORS preflight), but it can POST a "simple" request: a `text/plain`
// body, with the victim's cookies. An app that reads such a body as JSON anyway (a parser told to take any
// type, or text/plain for beacons), and trusts a session cookie that goes with cross-site requests, acts for
// whoever's browser sent it. Proven by sending exactly what such a page would: the app's own JSON body as the
// logged-in crawl saw it sent (its anti-forgery fields removed: another site cannot know them), as
// `text/plain`, with the session's cookies and nothing else of the app's (no Authorization, no header of its
// own) and the Origin of another site. It counts when that is answered as the app's own request was (2xx)
// while the same request without the cookies is refused: the session is what authorised it.
// Intrusive: the app's own request runs once more (the crawl's form sending made it, with harmless values),
// so a record may be written twice. Never a login, a logout, or a call that deletes, pays or orders.
import type { Finding } from '../../../../shared/findings.ts';
import type { HttpClient, HttpResponse } from '../../core/http-client.ts';
import type { ApiCall } from '../browser/api-calls.ts';
import { riskyForm } from '../browser/form-exercise.ts';
import { antiForgeryField, describeCookies } from '../csrf.ts';
import type { SessionCookie } from '../csrf.ts';
import { passwordField } from '../parameter-probes.ts';
import { webappFinding } from '../rules.ts';

/** JSON endpoints tried per scan. */
const maxEndpoints = 5;
/** The site the forged request says it comes from (reserved: it can never resolve). */
export const foreignOrigin = 'https://vigil-csrf-check.invalid';

export interface JsonCsrfInput {
  client: HttpClient;
  /** The target's origin: only its own endpoints are tried. */
  origin: string;
  /** The app's own requests, as the rendered crawl recorded them. */
  apiCalls: readonly ApiCall[];
  /** The session's cookies that go with cross-site requests (csrf.ts `unprotected`), or null. */
  exposed: readonly SessionCookie[] | null;
  /** The session's Cookie header for a URL of the target (empty when it has none). */
  cookieFor: (url: URL) => string;
  signal?: AbortSignal;
}

/** The JSON object the app posted, or null when its body is not one. */
function postedObject(call: ApiCall): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(call.body ?? '');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The logged-in POSTs of JSON objects to the target's own API, once per path: never a login or a sign-up (a
 * password field), a logout, or a path that reads like it deletes, pays or orders.
 */
export function jsonCsrfCandidates(calls: readonly ApiCall[], origin: string): ApiCall[] {
  const seen = new Set<string>();
  return calls.filter((call) => {
    const key = call.url.pathname;
    const ok =
      call.phase === 'session' &&
      call.method === 'POST' &&
      call.url.origin === origin &&
      call.bodyShape.type === 'json' &&
      postedObject(call) !== null &&
      !call.bodyShape.fields.some((field) => passwordField.test(field)) &&
      !riskyForm.test(call.url.pathname.replace(/[/_-]+/g, ' ')) &&
      !/log-?in|sign-?in|log-?out|sign-?out|session/i.test(call.url.pathname) &&
      !seen.has(key);
    seen.add(key);
    return ok;
  });
}

const accepted = (response: HttpResponse | null): response is HttpResponse =>
  response !== null && response.status >= 200 && response.status < 300;
/** Refused for want of a session: 401, 403, or a redirect (to the login). */
const refused = (response: HttpResponse | null) =>
  response !== null &&
  (response.status === 401 || response.status === 403 || (response.status >= 300 && response.status < 400));

export async function jsonCsrfFindings(
  input: JsonCsrfInput,
  tick: (done: number, total: number) => void,
): Promise<Finding[]> {
  const { client, exposed } = input;
  if (!exposed) {
    return [];
  }
  const described = describeCookies(exposed);
  const candidates = jsonCsrfCandidates(input.apiCalls, input.origin)
    .filter((call) => accepted(call.response))
    .slice(0, maxEndpoints);
  const findings: Finding[] = [];
  let done = 0;
  for (const call of candidates) {
    if (input.signal?.aborted) {
      break;
    }
    const cookie = input.cookieFor(call.url);
    const body = Object.fromEntries(
      Object.entries(postedObject(call)!).filter(([field]) => !antiForgeryField.test(field)),
    );
    // What another site's page can send: a simple request, the browser adding the cookies and its Origin.
    const send = (withCookie: boolean) =>
      client.tryRequest(call.url, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: {
          'content-type': 'text/plain;charset=UTF-8',
          origin: foreignOrigin,
          ...(withCookie && cookie ? { cookie } : {}),
        },
        followRedirects: 'none',
        // Guard: none of the session's other credentials; the cookie alone, given above.
        anonymous: true,
      });
    const forged = cookie ? await send(true) : null;
    const control = accepted(forged) ? await send(false) : null;
    tick(++done, candidates.length);
    if (accepted(forged) && refused(control)) {
      findings.push(
        webappFinding('web.csrf.json-simple-request', {
          location: `${call.url.origin}${call.url.pathname}`,
          evidence: `the app's own JSON request (fields: ${Object.keys(body).slice(0, 8).join(', ')}) sent as another site's page can send it (Content-Type text/plain, Origin ${foreignOrigin}, the session's cookies and no other header of the app's) was answered HTTP ${forged.status}, as the app's own was (HTTP ${call.response.status}); without the cookies: HTTP ${control!.status}. The session's cookies go with cross-site requests: ${described}`,
        }),
      );
    }
  }
  return findings;
}
