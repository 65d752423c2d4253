// Where the insecure-deserialization check (injection/deserialize.ts) sends its data: the carriers the app
// itself filled with serialized data (a parameter of a link, form or JSON body; a cookie it set), each in
// its own encoding, and, with the owner's consent, the site's upload forms. One finding per carrier; a
// carrier the time-based check could not time makes the scan partial, as the blind injections do.
import { randomBytes } from 'node:crypto';

import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import type { Endpoint, Page } from './crawl.ts';
import { deserializeDelay, delayPayloads, nodeSerializeEcho, serialFormat } from './injection/deserialize.ts';
import type { SerialFormat } from './injection/deserialize.ts';
import type { TimingLane } from './injection/lane.ts';
import { ParamProbe, ValueProbe } from './injection/param-probe.ts';
import { crawledValue } from './parameter-probes.ts';
import { cookiesOfAnswer } from './signed-cookies.ts';
import { multipartBody } from './xxe.ts';
import type { XxePlace } from './xxe.ts';

export const deserializationLimits = {
  /** Carriers of each kind tried (parameters, cookies, uploads). */
  maxCarriers: 10,
};

export interface SerialCarrier {
  probe: ValueProbe;
  format: SerialFormat;
  /** Already tried by output (an earlier pass): only the waits are left. */
  echoed?: boolean;
}

/** Parameters whose value the app itself set as serialized data, one per location. */
export function serializedParams(
  client: HttpClient,
  endpoints: Endpoint[],
  lane: TimingLane,
): SerialCarrier[] {
  const out = new Map<string, SerialCarrier>();
  for (const endpoint of endpoints.slice(0, 500)) {
    for (const param of endpoint.params.slice(0, 64)) {
      const format = serialFormat(crawledValue(endpoint, param) ?? '');
      const probe = format ? new ParamProbe(client, endpoint, param, lane) : null;
      if (format && probe && !out.has(probe.location)) {
        out.set(probe.location, { probe, format });
      }
    }
  }
  return [...out.values()].slice(0, deserializationLimits.maxCarriers);
}

const decodedCookie = (value: string) => {
  try {
    return decodeURIComponent(value.replace(/^"|"$/g, ''));
  } catch {
    return value;
  }
};

/**
 * Cookies the site set holding serialized data, each sent back to the page whose answer set it, with the
 * other cookies that answer set at their values. A value the app URL-encoded is sent URL-encoded.
 */
export function serializedCookies(client: HttpClient, pages: Page[], lane: TimingLane): SerialCarrier[] {
  // One carrier a cookie name: the first page that set it.
  const out = new Map<string, SerialCarrier>();
  for (const page of pages) {
    const url = new URL(page.requested ?? page.url);
    url.hash = '';
    const pairs = cookiesOfAnswer(page.response, url.href);
    for (const { name, value } of pairs) {
      const original = decodedCookie(value);
      const format = serialFormat(original);
      if (!format || out.has(name)) {
        continue;
      }
      const others = pairs.filter((p) => p.name !== name).map((p) => `${p.name}=${p.value}`);
      const wire = (sent: string) => (value.includes('%') ? encodeURIComponent(sent) : sent);
      const probe = new ValueProbe(
        client,
        `${url.origin}${url.pathname} (cookie ${name})`,
        `cookie ${name}`,
        original,
        (sent, options = {}) =>
          client.tryRequest(url, {
            ...options,
            headers: { cookie: [`${name}=${wire(sent)}`, ...others].join('; ') },
          }),
        lane,
      );
      out.set(name, { probe, format });
    }
  }
  return [...out.values()].slice(0, deserializationLimits.maxCarriers);
}

/** What an uploaded payload is, by its first bytes: its file name's extension and its content type. */
function fileKind(content: string): { ext: string; type: string } {
  if (/^\s*[[{]/.test(content)) {
    return { ext: 'json', type: 'application/json' };
  }
  return content.startsWith('!!')
    ? { ext: 'yaml', type: 'application/x-yaml' }
    : { ext: 'pkl', type: 'application/octet-stream' };
}

/** The upload forms (xxe.ts finds them), each taking our data as its file. */
export function uploadCarriers(client: HttpClient, places: XxePlace[], lane: TimingLane): SerialCarrier[] {
  return places
    .filter((place) => place.upload)
    .slice(0, deserializationLimits.maxCarriers)
    .map((place) => {
      const upload = place.upload!;
      const token = randomBytes(5).toString('hex');
      const boundary = `----vigil${token}`;
      const probe = new ValueProbe(
        client,
        `POST ${place.url.origin}${place.url.pathname}`,
        `a file uploaded in "${upload.field}"`,
        '{"name":"vigil","description":"vigil"}',
        (content, options = {}) => {
          const { ext, type } = fileKind(content);
          return client.tryRequest(place.url, {
            ...options,
            method: 'POST',
            headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
            body: multipartBody(upload, `vigil-${token}.${ext}`, content, boundary, type),
          });
        },
        lane,
      );
      return { probe, format: 'file' as const };
    });
}

/** The carriers the app itself filled with serialized data: parameters, then cookies. */
export const serializedCarriers = (
  client: HttpClient,
  endpoints: Endpoint[],
  pages: Page[],
  lane: TimingLane,
): SerialCarrier[] => [
  ...serializedParams(client, endpoints, lane),
  ...serializedCookies(client, pages, lane),
];

export interface DeserializationOptions {
  /** Node's busy wait (it blocks the app): only with the owner's consent. */
  intrusive: boolean;
  onFinding: (finding: Finding) => void;
  onProgress: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * Each carrier, two at a time: node-serialize's echo, then the waits. Returns the carriers the time-based
 * check could not time (the scan is partial for them).
 */
export async function deserializationFindings(
  carriers: SerialCarrier[],
  options: DeserializationOptions,
): Promise<{ location: string; reason: string }[]> {
  const untimed: { location: string; reason: string }[] = [];
  let done = 0;
  await forEachLimit(
    carriers,
    2,
    async ({ probe, format, echoed: tried }) => {
      const echoed = !tried && format !== 'base64-pickle' ? await nodeSerializeEcho(probe, format) : null;
      if (echoed) {
        options.onFinding(echoed);
      } else {
        const groups = delayPayloads(format, probe.original, options.intrusive);
        const timed = groups.length > 0 ? await deserializeDelay(probe, groups) : null;
        if (timed && 'untimed' in timed) {
          untimed.push({ location: probe.location, reason: timed.untimed });
        } else if (timed) {
          options.onFinding(timed);
        }
      }
      options.onProgress(++done, carriers.length);
    },
    options.signal,
  );
  return untimed;
}
