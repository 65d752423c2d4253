// The intrusive write checks, declared for the web scanner's registry: each runs only with the target
// owner's consent (core/checks.ts), writes markers of its own and cleans up where the app lets it.
import type { Check } from '../../core/checks.ts';
import type { HttpClient } from '../../core/http-client.ts';
import { sessionCookiesOf, unprotected } from '../csrf.ts';
import type { CrawlOutcome } from '../run-crawl.ts';
import { jsonCsrfFindings } from './json-csrf.ts';
import { massAssignmentFindings } from './mass-assignment.ts';
import type { WriteInput } from './places.ts';
import { storedXssFindings } from './stored-xss.ts';
import { unauthWriteFindings } from './unauth-writes.ts';

/** What the checks need of the web scan (registry.ts's WebScan has it). */
export interface WriteScan extends Omit<WriteInput, 'loggedIn'> {
  readonly client: HttpClient;
  crawled: CrawlOutcome | null;
}

const input = (scan: WriteScan, signal: AbortSignal): WriteInput => ({
  client: scan.client,
  start: scan.start,
  pages: scan.pages,
  endpoints: scan.endpoints,
  discovery: scan.discovery,
  loggedIn: Boolean(scan.crawled?.session),
  signal,
});

export const writeChecks: readonly Check<WriteScan>[] = [
  {
    id: 'web.stored-xss',
    phase: 'stored xss',
    share: 2,
    // Intrusive: it stores a marker in the site's data (a comment, a record) to see where it shows.
    category: 'intrusive',
    rules: ['web.xss.stored'],
    summary:
      'Sends each form that may store input, and each JSON collection, a unique inert element in its text fields, then fetches the known pages again: the element rendered unescaped is stored XSS.',
    async run(scan, { tick, signal, report }) {
      report(await storedXssFindings(input(scan, signal), tick));
    },
  },
  {
    id: 'web.unauth-writes',
    phase: 'unauthenticated writes',
    share: 2,
    // Intrusive: it creates a marker record, changes it and deletes it.
    category: 'intrusive',
    rules: ['web.auth.unauth-write', 'web.auth.unauth-create'],
    summary:
      'POSTs a marker record to each JSON collection without a session; on one it made, tries PATCH, PUT and DELETE without a session, reading it back each time, and deletes it. Never touches records it did not make.',
    async run(scan, { tick, signal, report }) {
      report(await unauthWriteFindings(input(scan, signal), tick));
    },
  },
  {
    id: 'web.mass-assignment',
    phase: 'mass assignment',
    share: 1,
    // Intrusive: it signs up two marker accounts.
    category: 'intrusive',
    rules: ['web.auth.mass-assignment'],
    summary:
      'Signs up two marker accounts at each registration form or endpoint, the second with role "admin" and admin flags added: a privileged value the server keeps is mass assignment.',
    async run(scan, { tick, signal, report }) {
      report(await massAssignmentFindings(input(scan, signal), tick));
    },
  },
  {
    id: 'web.csrf-json',
    phase: 'json csrf',
    share: 1,
    // Intrusive: the app's own request runs once more, so a record may be written twice.
    category: 'intrusive',
    rules: ['web.csrf.json-simple-request'],
    summary:
      "Logged in with a cookie session that goes with cross-site requests: each JSON POST the app made (five at most; never a login, logout, deletion, payment or order) sent again as another site's page can (text/plain, the session's cookies alone, a foreign Origin). Accepted, while refused without the cookies, is cross-site request forgery.",
    async run(scan, { tick, signal, report }) {
      const session = scan.crawled?.session;
      if (!session || session.login.kind === 'header') {
        return;
      }
      report(
        await jsonCsrfFindings(
          {
            client: scan.client,
            origin: scan.start.origin,
            apiCalls: scan.crawled!.apiCalls,
            exposed: unprotected(sessionCookiesOf(session, scan.start, scan.pages)),
            cookieFor: (url) => session.headers(url).cookie ?? '',
            signal,
          },
          tick,
        ),
      );
    },
  },
];
