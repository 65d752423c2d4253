// Where the write checks may write, from what the crawl and the discovery found: HTML forms that store
// what they are sent, JSON collections (a GET that answers a list of records, a POST the app sends JSON
// to) and registration forms and endpoints. Nothing here writes; each list is bounded.
import { loadOperations } from '../../api/openapi.ts';
import type { HttpClient } from '../../core/http-client.ts';
import type { Endpoint, Page } from '../crawl.ts';
import { unsafePath } from '../discovery/js-paths.ts';
import { isHtml } from '../html.ts';
import { header } from '../../core/http-client.ts';
import { detailedForms, takesText } from './forms.ts';
import type { DetailedForm } from './forms.ts';
import { collectionItems, jsonBody, writeLimits } from './marker.ts';
import type { JsonObject } from './marker.ts';

/** What the write checks read of the scan. */
export interface WriteInput {
  client: HttpClient;
  start: URL;
  pages: Page[];
  endpoints: Endpoint[];
  discovery: { endpoints: Endpoint[]; resources: URL[] };
  /** The scan holds a login session (its requests carry it unless sent anonymously). */
  loggedIn: boolean;
  /**
   * The phase's end: no new place is written to after it aborts; what was made already is still
   * cleaned up (in the phase's wind-down).
   */
  signal?: AbortSignal;
}

/** Forms never sent by a write check: sessions, money, deletions, account recovery, searches. */
const neverSent =
  /log-?in|sign-?in|log-?out|sign-?out|session|auth|pay|checkout|order|purchase|transfer|basket|cart|password|forgot|search|upload/i;
/** Paths of an existing account (signing in, its password, its profile): never a sign-up. */
const notSignUp =
  /log-?in|sign-?in|session|reset|forgot|change|recover|password|passwd|profile|settings|edit|update|\/me\b/i;
const registration = /regist|sign-?up|join|create|new|users?\b|accounts?\b|members?\b/i;

const passwordKey = /^(pass(word)?|pwd)$|password/i;

/** The forms of the crawled pages, once each (by action and fields). */
export function formsOf(pages: Page[]): DetailedForm[] {
  const seen = new Map<string, DetailedForm>();
  for (const page of pages) {
    if (!page.facts || !isHtml(header(page.response, 'content-type'), page.response.body)) {
      continue;
    }
    for (const form of detailedForms(page.response.body, page.url)) {
      const key = `${form.method} ${form.action.origin}${form.action.pathname} ${form.fields.map((f) => f.name).join(',')}`;
      if (!seen.has(key)) {
        seen.set(key, form);
      }
    }
  }
  return [...seen.values()];
}

/**
 * What edits a record that already exists (a profile, settings, an account, "edit" and "update" routes):
 * sending it would overwrite data the scan did not make.
 */
const editsExisting = /profile|settings|preferences|account|edit|update|\/me(?:\/|$)/i;

/**
 * Forms whose input may be stored and shown (comments, feedback, posts): POST, no password, no file, and
 * not an edit of something that exists: not at an edit path, and no text field the page already filled.
 */
export function storingForms(forms: DetailedForm[], start: URL): DetailedForm[] {
  return forms.filter(
    (form) =>
      form.method === 'POST' &&
      form.action.origin === start.origin &&
      !form.enctype.includes('multipart') &&
      !form.fields.some((f) => f.type === 'password' || f.type === 'file') &&
      !form.fields.some((f) => takesText(f) && f.value.trim() !== '') &&
      !neverSent.test(form.action.pathname) &&
      !editsExisting.test(form.action.pathname) &&
      !unsafePath.test(form.action.pathname),
  );
}

/** Registration forms: POST with a password field, at a path that names signing up (not signing in). */
export function registrationForms(forms: DetailedForm[], start: URL): DetailedForm[] {
  return forms.filter((form) => {
    const path = form.action.pathname;
    const passwords = form.fields.filter((f) => f.type === 'password').length;
    return (
      form.method === 'POST' &&
      form.action.origin === start.origin &&
      passwords > 0 &&
      !form.enctype.includes('multipart') &&
      !notSignUp.test(`${path} ${form.page.pathname}`) &&
      !form.fields.some((f) => /old|current/i.test(f.name)) &&
      (registration.test(`${path} ${form.page.pathname}`) || passwords > 1)
    );
  });
}

/** A JSON collection: where records are read (GET) and, perhaps, created (POST), with one record's shape. */
export interface Collection {
  url: URL;
  /** A record of the collection, or the body the app itself sent: the shape the checks' records take. */
  sample: JsonObject;
  /** The app itself POSTs JSON here. */
  posted: boolean;
}

const sameCollection = (a: URL, b: URL) =>
  a.origin === b.origin && a.pathname.replace(/\/+$/, '') === b.pathname.replace(/\/+$/, '');

/**
 * JSON collections: JSON POST endpoints the crawl saw the app use, pages that answered a list of records,
 * and discovered resources that do (fetched once, at most `writeLimits.maxPlaces` of them).
 */
export async function jsonCollections(input: WriteInput): Promise<Collection[]> {
  const found: Collection[] = [];
  const add = (collection: Collection) => {
    if (
      found.length < writeLimits.maxPlaces &&
      collection.url.origin === input.start.origin &&
      !unsafePath.test(collection.url.pathname) &&
      !neverSent.test(collection.url.pathname) &&
      !found.some((c) => sameCollection(c.url, collection.url))
    ) {
      found.push(collection);
    }
  };
  for (const endpoint of [
    ...input.endpoints,
    ...input.discovery.endpoints,
    ...(await documentedPosts(input)),
  ]) {
    if (
      endpoint.method === 'POST' &&
      endpoint.json &&
      !editsExisting.test(endpoint.url.pathname) &&
      !Object.keys(endpoint.json).some((k) => passwordKey.test(k))
    ) {
      add({ url: endpoint.url, sample: endpoint.json, posted: true });
    }
  }
  const fromPages = new Set<string>();
  for (const page of input.pages) {
    const items = page.response.status === 200 ? collectionItems(jsonBody(page.response)) : null;
    fromPages.add(page.url.href);
    if (items?.[0]) {
      add({ url: page.url, sample: items[0], posted: false });
    }
  }
  const others = input.discovery.resources
    .filter((url) => !fromPages.has(url.href))
    .slice(0, writeLimits.maxPlaces);
  for (const url of others) {
    if (found.length >= writeLimits.maxPlaces) {
      break;
    }
    const response = await input.client.tryRequest(url);
    const items = response?.status === 200 ? collectionItems(jsonBody(response)) : null;
    if (items?.[0]) {
      add({ url, sample: items[0], posted: false });
    }
  }
  return found;
}

/** Fetched once per scan (per client): the checks share one reading of the API document. */
const documented = new WeakMap<HttpClient, Promise<Endpoint[]>>();

/**
 * The POST operations of the site's OpenAPI document (at its usual paths) that take a JSON object, as
 * endpoints with the document's body shape; only those without path parameters (a collection, not a record).
 */
export function documentedPosts(input: WriteInput): Promise<Endpoint[]> {
  let posts = documented.get(input.client);
  if (!posts) {
    posts = loadOperations(input.client, input.start).then(({ operations }) =>
      operations
        .filter((op) => op.method === 'POST' && op.bodySample && op.pathParams.length === 0)
        .slice(0, writeLimits.maxPlaces * 2)
        .map((op) => ({
          url: op.url,
          method: 'POST' as const,
          params: Object.keys(op.bodySample!),
          json: op.bodySample!,
        })),
    );
    documented.set(input.client, posts);
  }
  return posts;
}

/** Registration endpoints the app sends JSON to: a POST whose body holds a password, at a sign-up path. */
export async function jsonRegistrations(input: WriteInput): Promise<Endpoint[]> {
  return [...input.endpoints, ...input.discovery.endpoints, ...(await documentedPosts(input))].filter(
    (endpoint) =>
      endpoint.method === 'POST' &&
      endpoint.json !== undefined &&
      endpoint.url.origin === input.start.origin &&
      Object.keys(endpoint.json).some((k) => passwordKey.test(k)) &&
      !notSignUp.test(endpoint.url.pathname) &&
      registration.test(endpoint.url.pathname),
  );
}

/** Keys of a record the server sets itself: never sent back. */
const serverKeys =
  /^(_?id|uuid|created_?at|updated_?at|deleted_?at|createdAt|updatedAt|deletedAt|__v|_rev)$/i;

/**
 * A record of `sample`'s shape to create: its strings replaced by `text(key)`, its numbers and booleans
 * kept, ids, timestamps, nested values and passwords left out. Null when it has no string to carry a marker.
 */
export function recordLike(
  sample: JsonObject,
  marker: string,
  text: (key: string) => string,
): JsonObject | null {
  const record: JsonObject = {};
  let strings = 0;
  for (const [key, value] of Object.entries(sample).slice(0, writeLimits.maxFields)) {
    if (serverKeys.test(key) || passwordKey.test(key)) {
      continue;
    }
    if (typeof value === 'string') {
      record[key] = /e-?mail/i.test(key) ? `${marker}@example.com` : text(key);
      strings++;
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      record[key] = value;
    }
  }
  return strings > 0 ? record : null;
}
