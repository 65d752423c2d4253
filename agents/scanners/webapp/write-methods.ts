// Write methods and TRACE, proven rather than read from an Allow header. In each candidate collection
// (the root, the crawled directories, and any that advertises WebDAV) we PUT a uniquely named text file,
// read it back, COPY and MOVE it, make a collection with MKCOL, and DELETE everything we made, checking
// that it is gone. The finding sits at the collection's URL; the marker's name is only in the evidence.
// Every request goes without the login of an authenticated scan: a logged-in user allowed to write is no
// finding, and the session's guard would refuse the DELETE that removes our own file.
import { randomBytes } from 'node:crypto';

import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient, HttpResponse, RequestInit } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import { webappFinding } from './rules.ts';
import { xmlElementTexts } from './xml-text.ts';

const send = (client: HttpClient, url: URL, init: RequestInit = {}) =>
  client.tryRequest(url, { ...init, anonymous: true });
const commonCollections = ['webdav/', 'dav/', 'uploads/', 'files/', 'share/', 'public/'];
const ok = (r: HttpResponse | null) => r !== null && r.status >= 200 && r.status < 300;
const status = (r: HttpResponse | null) => (r ? String(r.status) : 'no answer');

/** What OPTIONS says about a collection: the DAV compliance classes and the allowed methods. */
async function options(client: HttpClient, dir: URL): Promise<{ dav: string; allow: string[] }> {
  const r = await send(client, dir, { method: 'OPTIONS' });
  return {
    dav: r ? (header(r, 'dav') ?? '') : '',
    allow: (r ? (header(r, 'allow') ?? '') : '').split(',').map((m) => m.trim().toUpperCase()),
  };
}

/** PUT, read back, COPY, MOVE, MKCOL, then DELETE all of it; null when nothing could be written. */
async function proveWrites(client: HttpClient, dir: URL, dav: boolean): Promise<string | null> {
  const id = `vigil-write-probe-${randomBytes(6).toString('hex')}`;
  const marker = `${id}: harmless file written by a Vigil scan to prove write access; it deletes it at once.\n`;
  const file = new URL(`${id}.txt`, dir);
  const copy = new URL(`${id}-copy.txt`, dir);
  const moved = new URL(`${id}-moved.txt`, dir);
  const folder = new URL(`${id}-dir/`, dir);
  const steps: string[] = [];
  const created: URL[] = [];
  const put = await send(client, file, {
    method: 'PUT',
    body: marker,
    headers: { 'content-type': 'text/plain' },
  });
  const readBack = ok(put) ? await send(client, file) : null;
  // Guard: a 2xx to PUT proves nothing (SPAs answer 200 to anything); only reading our bytes back does.
  const written = readBack?.status === 200 && readBack.body === marker;
  if (ok(put)) {
    created.push(file);
  }
  if (written) {
    steps.push(`PUT ${status(put)} (read back)`);
    const copied = await send(client, file, { method: 'COPY', headers: { destination: copy.href } });
    if (ok(copied)) {
      created.push(copy);
      steps.push(`COPY ${status(copied)}`);
      const move = await send(client, copy, { method: 'MOVE', headers: { destination: moved.href } });
      if (ok(move)) {
        created.push(moved);
        steps.push(`MOVE ${status(move)}`);
      }
    }
  }
  if (written || dav) {
    const mkcol = await send(client, folder, { method: 'MKCOL' });
    if (mkcol?.status === 201) {
      created.push(folder);
      steps.push(`MKCOL ${status(mkcol)}`);
    }
  }
  if (steps.length === 0) {
    await cleanUp(client, created);
    return null;
  }
  const left = await cleanUp(client, created);
  const cleanup =
    left.length === 0
      ? `cleanup: DELETE removed all ${created.length} (checked with GET)`
      : `cleanup FAILED: remove ${left.map((u) => u.pathname).join(', ')} by hand`;
  return `${steps.join(', ')} as ${id}.txt; ${cleanup}`;
}

/** Deletes what the probe made; returns what is still there afterwards. */
async function cleanUp(client: HttpClient, created: URL[]): Promise<URL[]> {
  const left: URL[] = [];
  for (const url of [...created].reverse()) {
    await send(client, url, { method: 'DELETE' });
    const after = await send(client, url, { method: 'GET' });
    if (after?.status === 200 && (url.pathname.endsWith('/') || after.body.includes('vigil-write-probe-'))) {
      left.push(url);
    }
  }
  return left;
}

/** A PROPFIND with Depth 1 that lists the collection's members. */
async function propfindListing(client: HttpClient, dir: URL): Promise<string | null> {
  const r = await send(client, dir, {
    method: 'PROPFIND',
    headers: { depth: '1', 'content-type': 'application/xml' },
    body: '<?xml version="1.0" encoding="utf-8"?><propfind xmlns="DAV:"><prop><resourcetype/></prop></propfind>',
  });
  if (r?.status !== 207) {
    return null;
  }
  const hrefs = xmlElementTexts(r.body, 'href').texts;
  if (hrefs.length === 0) {
    return null;
  }
  const members = hrefs.filter((href) => new URL(href, dir).pathname !== dir.pathname);
  return `PROPFIND Depth: 1 answered 207 with ${members.length} members${members.length ? `: ${members.slice(0, 5).join(', ')}` : ''}`;
}

/**
 * `read`: TRACE and the WebDAV listing (active: they change nothing); `write`: the marker written, copied,
 * moved and deleted (intrusive: run only with the owner's consent, as a check of its own).
 */
export async function writeMethodFindings(
  client: HttpClient,
  start: URL,
  directories: URL[],
  tick: (done: number, total: number) => void,
  parts: { read: boolean; write: boolean } = { read: true, write: true },
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const trace = !parts.read
    ? null
    : await send(client, new URL('/', start), {
        method: 'TRACE',
        headers: { 'x-vigil-trace': 'echo-check' },
      });
  // TRACE proper echoes the request it received (message/http); a page that ignores the method does not.
  if (
    trace?.status === 200 &&
    /^TRACE \/ HTTP\/1\.[01]/.test(trace.body) &&
    /x-vigil-trace: echo-check/i.test(trace.body)
  ) {
    findings.push(
      webappFinding('web.method.trace', {
        location: new URL('/', start).href,
        evidence: `TRACE / answered 200 (${header(trace, 'content-type') ?? 'no content type'}) and echoed the request, headers included`,
      }),
    );
  }
  // Crawled directories get a PUT even when OPTIONS is silent (nginx's dav_methods does not answer it);
  // the usual WebDAV folders only when they advertise WebDAV.
  const candidates = [
    ...directories.map((dir) => ({ dir, blind: true })),
    ...commonCollections
      .map((name) => new URL(name, start))
      .filter((dir) => !directories.some((known) => known.href === dir.href))
      .map((dir) => ({ dir, blind: false })),
  ];
  let done = 0;
  await forEachLimit(
    candidates,
    4,
    async ({ dir, blind }) => {
      const { dav, allow } = await options(client, dir);
      const advertised =
        dav !== '' || allow.some((m) => ['PUT', 'MKCOL', 'PROPFIND', 'MOVE', 'COPY'].includes(m));
      const writes = parts.write && (blind || advertised) ? await proveWrites(client, dir, advertised) : null;
      if (writes) {
        findings.push(webappFinding('web.webdav.write', { location: dir.href, evidence: writes }));
      }
      if (parts.read && advertised) {
        const listing = await propfindListing(client, dir);
        if (listing) {
          findings.push(
            webappFinding('web.webdav.listing', {
              location: dir.href,
              evidence: `${listing}; DAV: ${dav || 'not sent'}`,
            }),
          );
        }
      }
      tick(++done, candidates.length);
    },
    client.signal,
  );
  return findings;
}
