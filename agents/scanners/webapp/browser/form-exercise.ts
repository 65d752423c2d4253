// The crawl fills and sends the forms of the pages it renders, once each, so the requests an app makes
// only when a visitor submits something (a login API, a search, a feedback form) are seen and probed like
// the rest. Bounded and careful: harmless typed values, a few forms per page and per scan, each kind of form
// once (a search bar on every page is sent once), never a form whose action or button reads like it
// deletes, pays, orders, resets or logs out, never the scan's own login form, and a sign-up only when the
// owner allows intrusive checks (it creates an account).
import type { ScanBrowserTab } from '../../../../shared/scan-browser.ts';
import { isBrowserEnd, within } from './bounded.ts';
import { fillScript, listFormsScript } from './form-scripts.ts';
import type { FormFound } from './form-scripts.ts';
import type { BrowserRouter, Exchange } from './router.ts';

/** What reads like a form whose sending changes or ends something that matters. */
export const riskyForm =
  /\b(delete|remove|destroy|drop|erase|wipe|log ?out|sign ?out|unsubscribe|deactivate|cancel|close|pay|payment|checkout|check ?out|orders?|purchase|buy|transfer|withdraw|reset|revoke|ban|block)\b/i;

/**
 * What reads like a sign-up: sending it creates an account on the target (a write, so only with the
 * owner's consent to intrusive checks), and may log the browser in as that account.
 */
export const signUpForm = (form: Pick<FormFound, 'words' | 'names'>) =>
  /\b(register|registration|sign ?up|create (?:an )?account|join|enrol+)\b/i.test(form.words) ||
  form.names.filter((name) => /pass|pwd/i.test(name)).length >= 2;

/** Values a person could have typed; nothing in them is a payload. */
export const formValues: Record<string, string> = {
  text: 'vigil',
  email: 'vigil.scan@example.com',
  password: 'Vigil-scan-7x',
  number: '1',
  tel: '5550100',
  url: 'https://example.invalid/',
};

export interface FormBudget {
  /** Forms the scan may still send. */
  left: number;
  perPage: number;
  /** Forms already sent (by field names and labels), on any page. */
  sent: Set<string>;
  /** Forms never to send on this page (the scan's own login form). */
  skip?: (page: URL, form: FormFound) => boolean;
}

export interface FormsSent {
  /** The requests the page made after each sending. */
  exchanges: Exchange[];
  /** Routes the app moved to meanwhile (a search results route with its query). */
  routes: string[];
  sent: { fields: string[]; how: string }[];
}

const routesScript = `(() => [location.href, ...(window.__vigilRoutes || []).slice(0, 200)])()`;

/**
 * Sends the page's forms. A page cut short meanwhile (ScanTabCut) or a browser gone (ScanBrowserStopped)
 * ends it, thrown to the crawl; anything else a form does (an error, a navigation) just ends that form.
 */
export async function exerciseForms(
  tab: ScanBrowserTab,
  router: BrowserRouter,
  page: URL,
  budget: FormBudget,
  timing: {
    navigationMs: number;
    settleMs: number;
    evaluateMs: number;
    deadline: number;
    signal?: AbortSignal;
  },
): Promise<FormsSent> {
  const out: FormsSent = { exchanges: [], routes: [], sent: [] };
  const time = (most: number) => within(timing.deadline, most);
  const run = <T>(script: string, fallback: T) =>
    tab.evaluate<T>(script, time(timing.evaluateMs)).catch((error: unknown) => {
      if (isBrowserEnd(error)) {
        throw error;
      }
      return fallback;
    });
  const forms = await run<FormFound[]>(listFormsScript, []);
  let onPage = 0;
  for (const [index, form] of forms.entries()) {
    const key = `${form.names.join(',')}|${form.words}`;
    if (
      budget.left <= 0 ||
      onPage >= budget.perPage ||
      timing.signal?.aborted ||
      router.stopped ||
      Date.now() >= timing.deadline
    ) {
      break;
    }
    if (budget.sent.has(key) || riskyForm.test(form.words) || (budget.skip?.(page, form) ?? false)) {
      continue;
    }
    budget.sent.add(key);
    budget.left -= 1;
    // The previous form may have moved the app elsewhere: back to the page first.
    if (onPage > 0 && (await tab.url()) !== page.href) {
      await tab.goto(page.href, time(timing.navigationMs));
      await router.settled(300, time(timing.settleMs), timing.signal);
    }
    onPage += 1;
    router.take();
    const how = await run<string | null>(fillScript(index, formValues), null);
    // The app's request starts after the click has returned: give it a moment before waiting for quiet.
    await new Promise((resolve) => setTimeout(resolve, 250));
    await router.settled(300, time(timing.settleMs), timing.signal);
    out.exchanges.push(...router.take());
    if (how) {
      out.sent.push({ fields: form.names, how });
    }
    out.routes.push(...(await run<string[]>(routesScript, [])));
  }
  return out;
}
