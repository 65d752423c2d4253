// The markers the intrusive write checks leave: a unique id per write ("vigil-marker-" and 12 hex digits),
// recognisable by anyone who finds it in their data, and how the checks find their own marker again in
// what the target answers (HTML rendered with it, JSON that holds it).
import { randomBytes } from 'node:crypto';

import { Parser } from 'htmlparser2';

import type { HttpResponse } from '../../core/http-client.ts';
import { header } from '../../core/http-client.ts';

export const markerPrefix = 'vigil-marker-';

export const newMarker = (): string => `${markerPrefix}${randomBytes(6).toString('hex')}`;

/** Limits every write check keeps to. */
export const writeLimits = {
  /** Places one check writes to (forms, JSON endpoints, collections). */
  maxPlaces: 8,
  /** Pages the stored-XSS check fetches again to look for its markers. */
  maxRefetch: 25,
  /** Registration places the mass-assignment check signs up at (two marker accounts each). */
  maxRegistrations: 3,
  /** Characters of any one value the checks send (the marker and its payload are far shorter). */
  maxValueChars: 200,
  /** Fields of a JSON body the checks build. */
  maxFields: 20,
};

/** The element the stored-XSS check looks for: ours by its marker, with an event handler that does nothing. */
export const xssElement = (marker: string): string =>
  `<vigil-x data-m="${marker}" onmouseover="void 0">${marker}</vigil-x>`;

/**
 * The stored-XSS payload: the element, after `">` and `</textarea>`, so that a value printed raw into an
 * attribute or a textarea breaks out as it would for an attacker (in plain text they show as text). It
 * never runs by itself (nothing fires mouseover on a page nobody looks at) and does nothing if it does;
 * kept unescaped with its handler, it proves a script would run.
 */
export const xssPayload = (marker: string): string => `"></textarea>${xssElement(marker)}`;

/**
 * The markers rendered as elements in `html`: a `vigil-x` element whose data-m names a marker and whose
 * event handler is intact. Escaped text (`&lt;vigil-x`), the payload inside a textarea, a script or an
 * attribute value, and an element whose handler a sanitiser stripped are not.
 */
export function renderedMarkers(html: string): Set<string> {
  const found = new Set<string>();
  let rawText = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'textarea' || name === 'script' || name === 'style' || name === 'title') {
          rawText++;
        }
        const marker = attrs['data-m'];
        if (
          name === 'vigil-x' &&
          rawText === 0 &&
          marker?.startsWith(markerPrefix) &&
          Object.keys(attrs).some((a) => a.startsWith('on'))
        ) {
          found.add(marker);
        }
      },
      onclosetag(name) {
        if (
          (name === 'textarea' || name === 'script' || name === 'style' || name === 'title') &&
          rawText > 0
        ) {
          rawText--;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

/** The body as JSON, when it is JSON; undefined otherwise. */
export function jsonBody(response: HttpResponse | null): unknown {
  if (!response) {
    return undefined;
  }
  if (!/json/i.test(header(response, 'content-type') ?? '') && !/^\s*[[{]/.test(response.body)) {
    return undefined;
  }
  try {
    return JSON.parse(response.body) as unknown;
  } catch {
    return undefined;
  }
}

export type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The items of a JSON collection: a top-level array of objects, or one under data/items/results/…. */
export function collectionItems(body: unknown): JsonObject[] | null {
  const list = Array.isArray(body)
    ? body
    : isObject(body)
      ? ['data', 'items', 'results', 'records', 'rows'].map((k) => body[k]).find(Array.isArray)
      : undefined;
  return list && list.every(isObject) ? list : null;
}

/** The first object (depth first, at most four levels down) one of whose string values holds `marker`. */
export function objectWith(body: unknown, marker: string, depth = 0): JsonObject | null {
  if (depth > 4) {
    return null;
  }
  if (Array.isArray(body)) {
    for (const item of body) {
      const hit = objectWith(item, marker, depth + 1);
      if (hit) {
        return hit;
      }
    }
    return null;
  }
  if (!isObject(body)) {
    return null;
  }
  if (Object.values(body).some((v) => typeof v === 'string' && v.includes(marker))) {
    return body;
  }
  for (const value of Object.values(body)) {
    const hit = objectWith(value, marker, depth + 1);
    if (hit) {
      return hit;
    }
  }
  return null;
}

const idKeys = ['id', '_id', 'uuid', 'ID', 'Id'];

/** The id of a record the target answered with (the object holding the marker, or the body's own). */
export function recordId(body: unknown, marker: string): string | null {
  for (const object of [objectWith(body, marker), isObject(body) ? body : null, ...dataOf(body)]) {
    for (const key of idKeys) {
      const value = object?.[key];
      if ((typeof value === 'string' && /^[\w.~-]{1,80}$/.test(value)) || Number.isInteger(value)) {
        return String(value);
      }
    }
  }
  return null;
}

const dataOf = (body: unknown): JsonObject[] => (isObject(body) && isObject(body.data) ? [body.data] : []);

/** The URL of a record made at `collection`: the Location the target gave, or the collection and its id. */
export function recordUrl(collection: URL, response: HttpResponse, marker: string): URL | null {
  const location = header(response, 'location');
  if (location) {
    try {
      const url = new URL(location, collection);
      return url.origin === collection.origin ? url : null;
    } catch {
      return null;
    }
  }
  const id = recordId(jsonBody(response), marker);
  if (!id) {
    return null;
  }
  const url = new URL(collection.href);
  url.search = '';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${encodeURIComponent(id)}`;
  return url;
}

/** Whether the response is a success (2xx). */
export const succeeded = (r: HttpResponse | null): r is HttpResponse =>
  r !== null && r.status >= 200 && r.status < 300;
