// Writes without authentication, proven only on records the check itself made. For each JSON collection
// found (webapp/write/places.ts) it POSTs a marker record without any session. If that record is created
// (read back at its URL or in the collection), it tries PATCH and PUT on that record, then DELETE, all
// without a session, reading the record back after each; a change that took, or a deletion that removed
// it, is `web.auth.unauth-write`. When the collection refuses anonymous reads (401/403) yet took the
// anonymous POST, that inconsistency is `web.auth.unauth-create`. An open collection that takes anonymous
// POSTs but guards changes is a public submission API, not a finding. On a logged-in scan whose
// anonymous POST was refused (401/403), the record is made in the session instead and the same anonymous
// PATCH, PUT and DELETE are tried on it; the session never deletes, so such a record stays unless the
// anonymous DELETE removes it. Existing records are never sent a PATCH, PUT or DELETE.
import type { Finding } from '../../../../shared/findings.ts';
import type { HttpClient, HttpResponse, RequestInit } from '../../core/http-client.ts';
import { webappFinding } from '../rules.ts';
import { collectionItems, jsonBody, newMarker, objectWith, recordUrl, succeeded } from './marker.ts';
import { jsonCollections, recordLike } from './places.ts';
import type { Collection, WriteInput } from './places.ts';

const anonymous = (client: HttpClient, url: URL, init: RequestInit = {}) =>
  client.tryRequest(url, { ...init, anonymous: true });
const json = (method: string, body: unknown): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const status = (r: HttpResponse | null) => (r ? String(r.status) : 'no answer');

/** The record at `item` as the scan can read it (anonymously, else in the session), or null. */
async function readRecord(client: HttpClient, item: URL, marker: string, collection: URL): Promise<unknown> {
  for (const anon of [true, false]) {
    const r = await client.tryRequest(item, { anonymous: anon });
    if (r?.status === 200) {
      const found = objectWith(jsonBody(r), marker);
      if (found) {
        return found;
      }
    }
    if (r && r.status !== 401 && r.status !== 403) {
      break;
    }
  }
  // Some APIs have no item route: the collection shows the record too.
  const list = await client.tryRequest(collection);
  return list?.status === 200 ? objectWith(collectionItems(jsonBody(list)) ?? jsonBody(list), marker) : null;
}

/** Whether the record at `item` is gone: 404/410 at its URL, or no longer in the collection. */
async function gone(client: HttpClient, item: URL, marker: string, collection: URL): Promise<boolean> {
  const r = await client.tryRequest(item);
  if (r && (r.status === 404 || r.status === 410)) {
    return true;
  }
  if (r?.status === 200 && objectWith(jsonBody(r), marker)) {
    return false;
  }
  const list = await client.tryRequest(collection);
  return list?.status === 200 && !list.body.includes(marker) && collectionItems(jsonBody(list)) !== null;
}

interface Probe {
  collection: Collection;
  /** The anonymous GET of the collection. */
  read: HttpResponse | null;
}

async function probeCollection(input: WriteInput, { collection, read }: Probe): Promise<Finding[]> {
  const { client } = input;
  const marker = newMarker();
  let textKey = '';
  const record = recordLike(collection.sample, marker, (key) => {
    textKey ||= key;
    return marker;
  });
  if (!record) {
    return [];
  }
  const findings: Finding[] = [];
  let made = await anonymous(client, collection.url, json('POST', record));
  let madeBy = 'without a session';
  let item = succeeded(made) ? recordUrl(collection.url, made, marker) : null;
  let created = item !== null && (await readRecord(client, item, marker, collection.url)) !== null;
  if (created && item && read && (read.status === 401 || read.status === 403)) {
    findings.push(
      webappFinding('web.auth.unauth-create', {
        location: collection.url.href,
        evidence: `GET ${collection.url.pathname} without a session answered ${read.status}, yet POST ${collection.url.pathname} without a session answered ${status(made)} and created ${item.pathname} (marker ${marker}, read back)`,
      }),
    );
  }
  if (!created && input.loggedIn && (made?.status === 401 || made?.status === 403)) {
    // Creating needs the login: the record is made in the scan's session, so that changing it can be
    // tried without one (a PUT route that lost its middleware while POST kept it). The session never
    // deletes, so unless the anonymous DELETE works, this record stays and the evidence names it.
    made = await client.tryRequest(collection.url, json('POST', record));
    madeBy = 'in the scan’s session';
    item = succeeded(made) ? recordUrl(collection.url, made, marker) : null;
    created = item !== null && (await readRecord(client, item, marker, collection.url)) !== null;
  }
  if (!created || !item) {
    return findings;
  }
  const took: string[] = [];
  const patched = `${marker}-patched`;
  const patch = await anonymous(client, item, json('PATCH', { [textKey]: patched }));
  if (
    succeeded(patch) &&
    JSON.stringify((await readRecord(client, item, patched, collection.url)) ?? '').includes(patched)
  ) {
    took.push(`PATCH ${patch.status} (the change read back)`);
  }
  const replaced = `${marker}-put`;
  const put = await anonymous(client, item, json('PUT', { ...record, [textKey]: replaced }));
  if (
    succeeded(put) &&
    JSON.stringify((await readRecord(client, item, replaced, collection.url)) ?? '').includes(replaced)
  ) {
    took.push(`PUT ${put.status} (the change read back)`);
  }
  const deleted = await anonymous(client, item, { method: 'DELETE' });
  const removed = succeeded(deleted) && (await gone(client, item, marker, collection.url));
  if (removed) {
    took.push(`DELETE ${deleted.status} (gone afterwards)`);
  }
  const cleanup = removed
    ? `the record is deleted`
    : `the record stays at ${item.pathname}: remove ${marker} by hand`;
  if (took.length > 0) {
    findings.push(
      webappFinding('web.auth.unauth-write', {
        location: collection.url.href,
        evidence: `record ${item.pathname} made ${madeBy} (POST ${status(made)}, marker ${marker}); without a session: ${took.join(', ')}; cleanup: ${cleanup}`,
      }),
    );
  } else if (findings.length > 0) {
    findings[0] = { ...findings[0]!, evidence: `${findings[0]!.evidence}; cleanup: ${cleanup}` };
  }
  return findings;
}

export async function unauthWriteFindings(
  input: WriteInput,
  tick: (done: number, total: number) => void,
): Promise<Finding[]> {
  const collections = await jsonCollections(input);
  const findings: Finding[] = [];
  let done = 0;
  for (const collection of collections) {
    if (input.signal?.aborted) {
      break;
    }
    const read = await anonymous(input.client, collection.url);
    findings.push(...(await probeCollection(input, { collection, read })));
    tick(++done, collections.length);
  }
  return findings;
}
