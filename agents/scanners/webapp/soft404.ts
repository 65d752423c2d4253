// The server's own answer for something that does not exist, per directory and per name shape. Servers
// answer missing paths in many ways: a plain 404, a custom 404 page served with 200, a single-page app's
// shell for every path, a front controller that takes every `.php`, a redirect to the login page, a 403
// for every dotfile. A candidate file counts as real only when its answer differs from what the same
// directory answers for a random name of the same shape (same extension chain, same leading dot).
import { randomBytes } from 'node:crypto';

import type { HttpClient, HttpResponse, RequestInit } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';

/** Request options of file probes: bytes kept as latin1 (magic numbers survive), bodies bounded. */
export const fileProbeInit: RequestInit = { encoding: 'latin1', maxBodyBytes: 256_000 };

/** `.index.php.swp` → `.+.php.swp`, `backup.tar.gz` → `.tar.gz`, `app/` → `/`, `search.php~` → `.php~`. */
export function nameShape(name: string): string {
  if (name === '' || name.endsWith('/')) {
    return '/';
  }
  const dot = name.startsWith('.') ? '.+' : '';
  const base = dot ? name.slice(1) : name;
  const tail = /(?:\.[\w-]{1,8}){0,2}~?$/.exec(base)?.[0] ?? '';
  return `${dot}${tail}`;
}

function randomName(shape: string): string {
  const token = `vigil${randomBytes(6).toString('hex')}`;
  if (shape === '/') {
    return `${token}/`;
  }
  return shape.startsWith('.+') ? `.${token}${shape.slice(2)}` : `${token}${shape}`;
}

/** The body with the requested name (in every spelling a page may echo it) and whitespace removed. */
function normalise(body: string, url: URL): string {
  const name = decodeURIComponent(url.pathname.replace(/\/$/, '').split('/').pop() ?? '');
  const spellings = [url.pathname, decodeURIComponent(url.pathname), name, encodeURIComponent(name)]
    .concat(name.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`))
    .filter((s) => s.length >= 3)
    .sort((a, b) => b.length - a.length);
  let out = body;
  for (const spelling of spellings) {
    out = out.split(spelling).join('');
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Dice coefficient over word multisets: 1 for the same words, 0 for none in common. */
export function similarity(a: string, b: string): number {
  const words = (s: string) => s.split(/[\s<>"'=/;,:(){}[\]]+/).filter(Boolean);
  const x = words(a);
  const y = words(b);
  if (x.length + y.length === 0) {
    return 1;
  }
  const counts = new Map<string, number>();
  x.forEach((w) => counts.set(w, (counts.get(w) ?? 0) + 1));
  let common = 0;
  for (const w of y) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      common += 1;
      counts.set(w, n - 1);
    }
  }
  return (2 * common) / (x.length + y.length);
}

/** True when two answers are the same page apart from the name each one asked for. */
export function sameAnswer(a: HttpResponse, aUrl: URL, b: HttpResponse, bUrl: URL): boolean {
  if (a.status !== b.status) {
    return false;
  }
  if (a.status >= 300 && a.status < 400) {
    const target = (r: HttpResponse, u: URL) => normalise(new URL(header(r, 'location') ?? '', u).href, u);
    return target(a, aUrl) === target(b, bUrl);
  }
  const x = normalise(a.body, aUrl);
  const y = normalise(b.body, bUrl);
  return x === y || similarity(x, y) >= 0.9;
}

export class NotFoundOracle {
  private readonly baselines = new Map<string, Promise<{ url: URL; response: HttpResponse | null }>>();

  constructor(
    private readonly client: HttpClient,
    private readonly init: RequestInit = fileProbeInit,
  ) {}

  /** What `dir` answers for a missing name shaped like `name` (fetched once per directory and shape). */
  baseline(dir: URL, name: string): Promise<{ url: URL; response: HttpResponse | null }> {
    const shape = nameShape(name);
    const key = `${dir.href}\u0000${shape}`;
    let found = this.baselines.get(key);
    if (!found) {
      const url = new URL(randomName(shape), dir);
      found = this.client.tryRequest(url, this.init).then((response) => ({ url, response }));
      this.baselines.set(key, found);
    }
    return found;
  }

  /**
   * Judges `response`, the answer to `url` fetched with this oracle's request options: null when it is
   * the server's answer for anything missing (or that cannot be told: a finding must be proven), else a
   * note for the evidence saying what a missing name of the same shape answered.
   */
  async judge(url: URL, response: HttpResponse): Promise<string | null> {
    const segments = url.pathname.split('/');
    const name = url.pathname.endsWith('/') ? `${segments.at(-2) ?? ''}/` : (segments.at(-1) ?? '');
    const dir = new URL(name.endsWith('/') ? '../' : './', url);
    const { url: missing, response: baseline } = await this.baseline(dir, name);
    if (!baseline || sameAnswer(response, url, baseline, missing)) {
      return null;
    }
    return `a missing name of the same shape answers HTTP ${baseline.status}`;
  }
}
