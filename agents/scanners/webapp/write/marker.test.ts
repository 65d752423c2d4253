import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../../core/http-client.ts';
import {
  collectionItems,
  newMarker,
  objectWith,
  recordId,
  recordUrl,
  renderedMarkers,
  xssElement,
  xssPayload,
} from './marker.ts';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

const response = (body: string, headers: Record<string, string> = {}): HttpResponse => ({
  url: 'http://site.test/api/notes',
  status: 201,
  headers: { 'content-type': 'application/json', ...headers },
  body,
  redirects: [],
});

describe('write markers', () => {
  it('are unique and recognisable', () => {
    const a = newMarker();
    expect(a).toMatch(/^vigil-marker-[0-9a-f]{12}$/);
    expect(newMarker()).not.toBe(a);
  });

  it('find the payload only where it is rendered as an element with its handler', () => {
    const m = 'vigil-marker-0123456789ab';
    expect(renderedMarkers(`<ul><li>${xssPayload(m)}</li></ul>`)).toEqual(new Set([m]));
    // Upper case, as some templates print it, is still the element.
    expect(renderedMarkers(`<VIGIL-X DATA-M="${m}" ONMOUSEOVER="void 0">x</VIGIL-X>`)).toEqual(new Set([m]));
    for (const safe of [
      `<li>&lt;vigil-x data-m="${m}" onmouseover="void 0"&gt;</li>`, // escaped
      `<textarea>${xssElement(m)}</textarea>`, // shown as text in a form field
      `<textarea>${escapeHtml(xssPayload(m))}</textarea>`, // escaped where it could break out
      `<script>var last = '${xssElement(m)}';</script>`, // a string in a script
      `<title>${xssElement(m)}</title>`,
      `<input value="${xssPayload(m).replace(/"/g, '&quot;')}">`, // an attribute value, quoted
      `<vigil-x data-m="${m}">x</vigil-x>`, // a sanitiser stripped the handler
      `<vigil-x data-m="someone-else" onmouseover="x">x</vigil-x>`, // not ours
    ]) {
      expect(renderedMarkers(safe), safe).toEqual(new Set());
    }
    // After a textarea closes, the page is HTML again.
    expect(renderedMarkers(`<textarea>a</textarea>${xssPayload(m)}`)).toEqual(new Set([m]));
    // Printed raw into a textarea or an attribute, the payload breaks out as an attacker's would.
    expect(renderedMarkers(`<textarea name="bio">${xssPayload(m)}</textarea>`)).toEqual(new Set([m]));
    expect(renderedMarkers(`<input name="nick" value="${xssPayload(m)}">`)).toEqual(new Set([m]));
  });

  it('read collections and find their own record in an answer', () => {
    expect(collectionItems([{ id: 1 }])).toEqual([{ id: 1 }]);
    expect(collectionItems({ data: [{ id: 1 }] })).toEqual([{ id: 1 }]);
    expect(collectionItems({ results: [] })).toEqual([]);
    expect(collectionItems([1, 2])).toBeNull();
    expect(collectionItems({ id: 1 })).toBeNull();
    const m = 'vigil-marker-aaaaaaaaaaaa';
    const body = { status: 'success', data: { id: 7, email: `${m}@example.com`, role: 'customer' } };
    expect(objectWith(body, m)).toEqual(body.data);
    expect(objectWith({ a: { b: { c: { d: { e: { f: m } } } } } }, m)).toBeNull(); // too deep
    expect(recordId(body, m)).toBe('7');
    expect(recordId({ _id: 'a1b2', title: m }, m)).toBe('a1b2');
    expect(recordId({ id: '../admin', title: m }, m)).toBeNull(); // not an id we put in a path
  });

  it('take a record’s URL from Location, else from the collection and its id, on the same origin only', () => {
    const m = 'vigil-marker-bbbbbbbbbbbb';
    const collection = new URL('http://site.test/api/notes?sort=asc');
    expect(recordUrl(collection, response('{}', { location: '/api/notes/9' }), m)?.href).toBe(
      'http://site.test/api/notes/9',
    );
    expect(recordUrl(collection, response(JSON.stringify({ id: 4, title: m })), m)?.href).toBe(
      'http://site.test/api/notes/4',
    );
    expect(recordUrl(collection, response('{}', { location: 'http://elsewhere.test/x' }), m)).toBeNull();
    expect(recordUrl(collection, response('{"ok":true}'), m)).toBeNull();
  });
});
