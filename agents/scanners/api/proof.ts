// What proves that an answer comes from an API, before an API check judges it. A site with no API (only
// 404s, or an app shell served for every path) must not be judged as one: a burst of 404s says nothing
// about rate limiting, and a 200 page for a path the document calls secured says nothing about its
// authentication.
import { randomBytes } from 'node:crypto';

import type { HttpClient, HttpResponse } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';

const apiTypes = /json|xml|yaml|protobuf|msgpack|cbor|graphql|ndjson|event-stream|octet-stream/i;

/** An API's kind of body: a data type, or JSON whatever the type says; never an HTML page. */
export function isApiContent(response: HttpResponse): boolean {
  const type = header(response, 'content-type') ?? '';
  if (/html/i.test(type)) {
    return false;
  }
  if (apiTypes.test(type)) {
    return true;
  }
  try {
    const parsed: unknown = JSON.parse(response.body);
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    return false;
  }
}

/**
 * The answer ended as answers do (or reached our size cap): one that a deadline, a silence or a broken
 * framing cut short may be a tarpit's first bytes, and proves nothing.
 */
const whole = (response: HttpResponse) => !response.cutShort || response.cutShort === 'size';

/** The operation is there: answered by the API, neither missing (404, 410) nor broken (5xx). */
export function endpointAnswers(response: HttpResponse | null): response is HttpResponse {
  return (
    response !== null &&
    whole(response) &&
    response.status < 500 &&
    response.status !== 404 &&
    response.status !== 410 &&
    isApiContent(response)
  );
}

/** A successful API answer: 2xx with an API's kind of body. */
export function isSuccessfulApiAnswer(response: HttpResponse | null): response is HttpResponse {
  return (
    response !== null &&
    whole(response) &&
    response.status >= 200 &&
    response.status < 300 &&
    isApiContent(response)
  );
}

/**
 * True when the server answers a made-up path beside `url` just as it answered `url` (a catch-all that
 * returns the same 200 for everything): then the answer proves nothing about `url`.
 */
export async function answersAnything(client: HttpClient, url: URL, answer: HttpResponse): Promise<boolean> {
  const sibling = new URL(url);
  sibling.pathname = url.pathname.replace(/[^/]*$/, `vigil-${randomBytes(6).toString('hex')}`);
  sibling.search = '';
  const made = await client.tryRequest(sibling);
  return made !== null && made.status === answer.status && made.body.trim() === answer.body.trim();
}

/** `answer` (to a GET of `url`) proves a working API operation there. */
export async function provesOperation(
  client: HttpClient,
  url: URL,
  answer: HttpResponse | null,
): Promise<boolean> {
  return isSuccessfulApiAnswer(answer) && !(await answersAnything(client, url, answer));
}
