import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from '../../tests/helpers/stack.ts';
import type { RunningStack } from '../stack.ts';
import { inlineConfig, webRoutes } from './routes.ts';

let stack: RunningStack;
let dist: string;
beforeAll(async () => {
  stack = await startTestStack();
  dist = await mkdtemp(path.join(os.tmpdir(), 'vigil-web-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><title>Vigil</title></head><body><div id="root"></div></body></html>',
  );
  await writeFile(
    path.join(dist, 'shell.html'),
    `<!doctype html><html><head><title>Shell</title></head><body>${'<p>prerendered</p>'.repeat(200)}</body></html>`,
  );
  await writeFile(path.join(dist, 'assets', 'index-3f2a1b.js'), 'console.log(1)');
  await writeFile(path.join(dist, 'favicon.svg'), '<svg/>');
  await writeFile(path.join(dist, 'assets', 'big-9c8d7e.js'), BIG_SCRIPT);
  await writeFile(path.join(dist, 'assets', 'logo-1a2b3c.png'), Buffer.alloc(4096, 7));
  await writeFile(path.join(dist, '.env'), 'SECRET=1');
  await writeFile(path.join(os.tmpdir(), 'vigil-web-outside.txt'), 'outside');
});
afterAll(async () => {
  await stack.close();
  await rm(dist, { recursive: true, force: true });
});

const web = () => webRoutes(stack.ctx, { dir: dist });
const BIG_SCRIPT = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ i, name: `row ${i}` })))};`;

describe('/config.json', () => {
  it('gives the web build the public URL and anon key only, uncached', async () => {
    const res = await fetch(`${stack.url}/config.json`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ supabaseUrl: stack.url, supabaseAnonKey: stack.status.anon_key });
  });
});

describe('config written into each page', () => {
  const configIn = (html: string) => {
    const match = /<script type="application\/json" id="vigil-runtime-config">(.*?)<\/script><\/head>/.exec(
      html,
    );
    return match ? (JSON.parse(match[1]!) as unknown) : null;
  };
  const expected = () => ({ supabaseUrl: stack.url, supabaseAnonKey: stack.status.anon_key });

  it('puts the /config.json values in every HTML page, compressed or not, and nowhere else', async () => {
    for (const route of ['/', '/dashboard', '/index.html']) {
      expect(configIn(await (await web().request(route)).text()), route).toEqual(expected());
    }
    const br = await web().request('/shell.html', { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    const html = brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString('utf8');
    expect(configIn(html)).toEqual(expected());
    expect(await (await web().request('/assets/index-3f2a1b.js')).text()).toBe('console.log(1)');
  });

  it('cannot be broken out of by what the config holds', () => {
    const page = Buffer.from('<html><head></head><body></body></html>');
    const hostile = { supabaseUrl: 'https://x.test/</script><script>alert(1)</script><!--' };
    const html = inlineConfig(hostile)(page).toString('utf8');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(configIn(html)).toEqual(hostile);
    // A page without a head is sent as it is.
    expect(inlineConfig(hostile)(Buffer.from('<p>x</p>')).toString()).toBe('<p>x</p>');
  });
});

describe('web app', () => {
  it('serves files with their types, immutable hashed assets and security headers', async () => {
    const js = await web().request('/assets/index-3f2a1b.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const svg = await web().request('/favicon.svg');
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get('cache-control')).toBe('no-cache');
    const csp = js.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`connect-src 'self' ${stack.url} ws://${new URL(stack.url).host}`);
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    expect(js.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('answers app routes with index.html, and missing files with 404', async () => {
    for (const route of ['/', '/dashboard', '/settings/billing?tab=1']) {
      const res = await web().request(route);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('id="root"');
    }
    expect((await web().request('/assets/missing-123.js')).status).toBe(404);
    expect((await web().request('/robots.txt')).status).toBe(404);
  });

  it('never serves dot-files or anything outside the build', async () => {
    for (const p of [
      '/.env',
      '/%2e%2e/vigil-web-outside.txt',
      '/..%2fvigil-web-outside.txt',
      '/assets%5c..%5c.env',
      '/index.html%00.js',
    ]) {
      const res = await web().request(p);
      expect(await res.text(), p).not.toMatch(/SECRET|outside/);
    }
  });

  it('leaves API paths to their routers', async () => {
    expect((await web().request('/rest/v1/anything')).status).toBe(404);
    expect(await (await web().request('/auth/v1/user')).text()).not.toContain('id="root"');
  });

  it('explains how to build the web app when dist/web is missing', async () => {
    const res = await webRoutes(stack.ctx, { dir: path.join(dist, 'nope') }).request('/');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build:web');
  });
});

describe('compression', () => {
  const get = (route: string, acceptEncoding?: string) =>
    web().request(route, {
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends scripts as Brotli or gzip, as the browser prefers, and the bytes decode to the file', async () => {
    const br = await get('/assets/big-9c8d7e.js', 'gzip, deflate, br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(BIG_SCRIPT.length / 3);
    expect(brotliDecompressSync(brBytes).toString()).toBe(BIG_SCRIPT);

    const gz = await get('/assets/big-9c8d7e.js', 'gzip;q=1, br;q=0.5');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(BIG_SCRIPT);
    // Served again from the cache: the same bytes.
    const again = await get('/assets/big-9c8d7e.js', 'gzip, deflate, br');
    expect(Buffer.from(await again.arrayBuffer()).equals(brBytes)).toBe(true);
  });

  it('sends as is what the browser refuses, images, and files too small to gain', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0', 'compress']) {
      const res = await get('/assets/big-9c8d7e.js', accept);
      expect(res.headers.get('content-encoding'), String(accept)).toBeNull();
      expect(await res.text()).toBe(BIG_SCRIPT);
    }
    const png = await get('/assets/logo-1a2b3c.png', 'gzip, br');
    expect(png.headers.get('content-encoding')).toBeNull();
    expect((await png.arrayBuffer()).byteLength).toBe(4096);
    const small = await get('/assets/index-3f2a1b.js', 'gzip, br');
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.text()).toBe('console.log(1)');
  });
});
