// What counts as an API's answer before an API check may judge it.
import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../core/http-client.ts';
import { endpointAnswers, isApiContent, isSuccessfulApiAnswer } from './proof.ts';

const answer = (status: number, type: string | undefined, body: string, extra: Partial<HttpResponse> = {}) =>
  ({
    url: 'http://api.test/x',
    status,
    headers: type ? { 'content-type': type } : {},
    body,
    redirects: [],
    ...extra,
  }) satisfies HttpResponse;

describe('API proof', () => {
  it('takes data types and untyped JSON for an API body, never an HTML page', () => {
    expect(isApiContent(answer(200, 'application/json', '[]'))).toBe(true);
    expect(isApiContent(answer(200, 'application/problem+xml', '<problem/>'))).toBe(true);
    expect(isApiContent(answer(200, undefined, '{"id":1}'))).toBe(true);
    expect(isApiContent(answer(200, 'text/html', '{"id":1}'))).toBe(false);
    expect(isApiContent(answer(200, 'text/plain', 'ok'))).toBe(false);
  });

  it('needs a whole 2xx API answer for success, and no 404, 410 or 5xx for an operation to be there', () => {
    expect(isSuccessfulApiAnswer(answer(200, 'application/json', '[]'))).toBe(true);
    expect(isSuccessfulApiAnswer(answer(404, 'application/json', '{"error":"not found"}'))).toBe(false);
    expect(isSuccessfulApiAnswer(answer(200, 'text/html', '<div id="app"></div>'))).toBe(false);
    expect(
      isSuccessfulApiAnswer(answer(200, 'application/json', '{"events":[', { cutShort: 'deadline' })),
    ).toBe(false);
    expect(isSuccessfulApiAnswer(answer(200, 'application/json', '[1,2', { cutShort: 'size' }))).toBe(true);
    expect(endpointAnswers(answer(401, 'application/json', '{"error":"unauthorized"}'))).toBe(true);
    expect(endpointAnswers(answer(404, 'application/json', '{"error":"not found"}'))).toBe(false);
    expect(endpointAnswers(answer(410, 'application/json', '{}'))).toBe(false);
    expect(endpointAnswers(answer(503, 'application/json', '{}'))).toBe(false);
    expect(endpointAnswers(null)).toBe(false);
  });
});
