// Stored XSS, proven by what the site serves afterwards. Each form that may store what it is sent
// (comments, feedback, profile fields: POST, no password, no file, not a login, payment or deletion) and
// each JSON collection the app writes to gets one submission whose free-text fields carry an element of
// our own with a unique marker (marker.ts: xssPayload); then the pages the crawl already knows are fetched
// again (a bounded number, the submitting pages first) and parsed. A marker found rendered as an element,
// its event handler intact, is the finding, filed at the place that took the input, naming the pages that
// show it. Nothing is executed: the proof is the markup. The answer to the submission itself is never
// taken as proof (that is reflection, which web.probes covers).
import type { Finding } from '../../../../shared/findings.ts';
import type { HttpResponse } from '../../core/http-client.ts';
import { header } from '../../core/http-client.ts';
import { isHtml } from '../html.ts';
import { webappFinding } from '../rules.ts';
import { fillValue, formBody, takesText } from './forms.ts';
import { newMarker, recordUrl, renderedMarkers, succeeded, writeLimits, xssPayload } from './marker.ts';
import { formsOf, jsonCollections, recordLike, storingForms } from './places.ts';
import type { WriteInput } from './places.ts';

interface Submission {
  marker: string;
  /** Where the input went (the finding's location). */
  place: URL;
  how: string;
  fields: string[];
  /** Pages to look at first: the form's own page, where the answer redirected. */
  first: URL[];
  /** What the check did to remove its record (or why it could not). */
  cleanup: () => Promise<string>;
}

export async function storedXssFindings(
  input: WriteInput,
  tick: (done: number, total: number) => void,
): Promise<Finding[]> {
  const { client, start } = input;
  const submissions: Submission[] = [];
  const forms = storingForms(formsOf(input.pages), start).slice(0, writeLimits.maxPlaces);
  const collections = (await jsonCollections(input)).slice(
    0,
    Math.max(0, writeLimits.maxPlaces - forms.length),
  );
  const total = forms.length + collections.length + 1;
  let done = 0;

  for (const form of forms) {
    if (input.signal?.aborted) {
      break;
    }
    const marker = newMarker();
    const texts: string[] = [];
    const values = form.fields.map((field): [string, string] => [
      field.name,
      fillValue(field, marker, (f) => {
        if (takesText(f)) {
          texts.push(f.name);
          return xssPayload(marker);
        }
        return marker;
      }).slice(0, writeLimits.maxValueChars),
    ]);
    if (texts.length > 0) {
      const answer = await client.tryRequest(form.action, {
        method: 'POST',
        body: formBody(values),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      if (answer && answer.status < 400) {
        submissions.push({
          marker,
          place: form.action,
          how: `POST ${form.action.pathname} (form on ${form.page.pathname})`,
          fields: texts,
          first: [form.page, ...redirectedTo(answer, form.action)],
          cleanup: () =>
            Promise.resolve(`the entry stays (a form offers no way to remove it): search for ${marker}`),
        });
      }
    }
    tick(++done, total);
  }

  for (const collection of collections) {
    if (input.signal?.aborted) {
      break;
    }
    const marker = newMarker();
    const texts: string[] = [];
    const record = recordLike(collection.sample, marker, (key) => {
      texts.push(key);
      return xssPayload(marker);
    });
    if (record) {
      const answer = await client.tryRequest(collection.url, {
        method: 'POST',
        body: JSON.stringify(record),
        headers: { 'content-type': 'application/json' },
      });
      if (succeeded(answer)) {
        const item = recordUrl(collection.url, answer, marker);
        submissions.push({
          marker,
          place: collection.url,
          how: `POST ${collection.url.pathname} (JSON)`,
          fields: texts,
          first: redirectedTo(answer, collection.url),
          cleanup: () => removeRecord(input, item, marker),
        });
      }
    }
    tick(++done, total);
  }
  if (submissions.length === 0) {
    tick(total, total);
    return [];
  }

  // Every page once, the submitting pages first, then the crawl's HTML pages in crawl order.
  const pages = new Map<string, URL>();
  for (const url of [
    ...submissions.flatMap((s) => s.first),
    ...input.pages.filter((p) => p.facts).map((p) => p.requested ?? p.url),
  ]) {
    if (url.origin === start.origin && pages.size < writeLimits.maxRefetch) {
      pages.set(url.href, url);
    }
  }
  const shownAt = new Map<string, string[]>();
  for (const url of pages.values()) {
    if (input.signal?.aborted) {
      break;
    }
    const page = await client.tryRequest(url, { followRedirects: 'same-origin' });
    if (page && page.status < 400 && isHtml(header(page, 'content-type'), page.body)) {
      for (const marker of renderedMarkers(page.body)) {
        shownAt.set(marker, [...(shownAt.get(marker) ?? []), url.pathname + url.search]);
      }
    }
  }
  tick(total - 1, total);

  // Logged in: whether a visitor without the session sees it too (one page each, before any cleanup).
  const audience = new Map<string, string>();
  if (input.loggedIn) {
    for (const [marker, where] of shownAt) {
      const page = await client.tryRequest(new URL(where[0]!, start), { anonymous: true });
      audience.set(
        marker,
        page?.status === 200 && renderedMarkers(page.body).has(marker)
          ? `; visitors without a session see it too (${where[0]})`
          : '; shown in the scan’s session (not seen without it at the first page)',
      );
    }
  }
  const findings: Finding[] = [];
  for (const submission of submissions) {
    const cleanup = await submission.cleanup();
    const where = shownAt.get(submission.marker);
    if (where) {
      findings.push(
        webappFinding('web.xss.stored', {
          location: submission.place.href,
          evidence: `${submission.how} with "></textarea><vigil-x data-m="${submission.marker}" onmouseover="void 0"> in ${submission.fields.join(', ')}; rendered unescaped as an element, event handler intact, at ${where.slice(0, 5).join(', ')}${where.length > 5 ? ` and ${where.length - 5} more` : ''}${audience.get(submission.marker) ?? ''}; cleanup: ${cleanup}`,
        }),
      );
    }
  }
  tick(total, total);
  return findings;
}

/** The same-origin page a submission's answer redirected to, to be looked at first. */
function redirectedTo(answer: HttpResponse, from: URL): URL[] {
  const location = answer.status >= 300 && answer.status < 400 ? header(answer, 'location') : undefined;
  if (!location) {
    return [];
  }
  try {
    const url = new URL(location, from);
    return url.origin === from.origin ? [url] : [];
  } catch {
    return [];
  }
}

/**
 * Deletes a record the check made, anonymously (the session's guard never deletes in the account's name),
 * and checks that it is gone; says what became of it.
 */
export async function removeRecord(input: WriteInput, item: URL | null, marker: string): Promise<string> {
  if (!item) {
    return `the record stays (the answer named no id): search for ${marker}`;
  }
  const deleted = await input.client.tryRequest(item, { method: 'DELETE', anonymous: true });
  const after = succeeded(deleted) ? await input.client.tryRequest(item) : null;
  if (after && (after.status === 404 || after.status === 410 || !after.body.includes(marker))) {
    return `DELETE ${item.pathname} removed it (checked with GET)`;
  }
  return `DELETE ${item.pathname} answered ${deleted ? deleted.status : 'nothing'}, so the record stays: remove ${marker} by hand`;
}
