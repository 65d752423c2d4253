// The requests a single-page app makes by itself (XHR and fetch), as the crawl records them: endpoints
// for the probes, API responses for the checks, and what each request sent (method, body shape).
import type { HttpResponse } from '../../core/http-client.ts';
import type { Endpoint } from '../crawl.ts';
import type { Exchange } from './router.ts';

export interface ApiCall {
  method: string;
  url: URL;
  /** Request headers as the app sent them (cookies and Authorization included). */
  headers: Record<string, string>;
  body: string | null;
  /** How the body was encoded, and its field names (top-level JSON keys or form fields). */
  bodyShape: { type: 'none' | 'json' | 'form' | 'other'; fields: string[] };
  response: HttpResponse;
  /** Crawled before logging in ('anonymous') or in the login session ('session'). */
  phase: 'anonymous' | 'session';
}

function shapeOf(
  body: string | null,
  contentType: string,
): { type: 'none' | 'json' | 'form' | 'other'; fields: string[] } {
  if (body === null || body === '') {
    return { type: 'none', fields: [] };
  }
  if (/json/i.test(contentType) || /^\s*[[{]/.test(body)) {
    try {
      const parsed: unknown = JSON.parse(body);
      const fields =
        parsed && typeof parsed === 'object' && !Array.isArray(parsed)
          ? Object.keys(parsed).slice(0, 50)
          : [];
      return { type: 'json', fields };
    } catch {
      // Not JSON after all: fall through to the other shapes.
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType) || /^[\w.%-]+=[^&]*(&[\w.%-]+=[^&]*)*$/.test(body)) {
    return { type: 'form', fields: [...new URLSearchParams(body).keys()].slice(0, 50) };
  }
  return { type: 'other', fields: [] };
}

export function apiCallOf(exchange: Exchange, phase: ApiCall['phase']): ApiCall | null {
  if (exchange.request.kind !== 'xhr' || !exchange.response) {
    return null;
  }
  const { request } = exchange;
  return {
    method: request.method.toUpperCase(),
    url: new URL(exchange.response.url),
    headers: request.headers,
    body: request.body,
    bodyShape: shapeOf(request.body, request.headers['content-type'] ?? ''),
    response: exchange.response,
    phase,
  };
}

/** Top-level fields of a JSON object body that hold a string, number or boolean (what a probe can replace). */
function jsonTemplate(body: string | null): { json: Record<string, unknown>; params: string[] } | null {
  try {
    const parsed: unknown = JSON.parse(body ?? '');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return null;
    }
    const json = parsed as Record<string, unknown>;
    const params = Object.keys(json)
      .filter((key) => ['string', 'number', 'boolean'].includes(typeof json[key]))
      .slice(0, 20);
    return params.length > 0 ? { json, params } : null;
  } catch {
    return null;
  }
}

/**
 * The endpoint the probes can exercise: GET with query parameters, or a POSTed form; a POSTed JSON object
 * too when `json` (calls the form exercise caused: the app's own requests are not all safe to repeat).
 */
export function endpointOf(call: ApiCall, options: { json?: boolean } = {}): Endpoint | null {
  const params = [...call.url.searchParams.keys()];
  if (call.method === 'GET' && params.length > 0) {
    return { url: call.url, method: 'GET', params };
  }
  if (call.method === 'POST' && call.bodyShape.type === 'form' && call.bodyShape.fields.length > 0) {
    return { url: call.url, method: 'POST', params: call.bodyShape.fields };
  }
  const template = call.method === 'POST' && call.bodyShape.type === 'json' ? jsonTemplate(call.body) : null;
  if (options.json && template) {
    return { url: call.url, method: 'POST', ...template };
  }
  return null;
}
