import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { INLINE_CONFIG_ELEMENT_ID } from '../../shared/boundaries.ts';
import type { StackContext } from '../context.ts';
import { chooseEncoding, CompressionCache } from './compression.ts';
import { NOT_BUILT_HTML } from './not-built.ts';
import { webSecurityHeaders } from './security-headers.ts';
import { processSettings } from '../config.ts';

/** dist/web, or VIGIL_WEB_DIR when a build lives elsewhere. */
export const defaultWebDir = () =>
  processSettings().VIGIL_WEB_DIR ?? path.resolve(import.meta.dirname, '../../dist/web');

// Paths that belong to the API and local pages: never answered with the SPA.
const RESERVED = /^\/(auth|rest|realtime|functions|storage)\/v1(\/|$)|^\/_(mail|stack|checkout)(\/|$)/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * /config.json (the public URL and anon key the web build reads at start-up) and the web build itself
 * (dist/web) with client-side routing: unknown non-file paths get index.html. Mounted last.
 */
export function webRoutes(ctx: StackContext, options: { dir?: string } = {}): Hono {
  const root = options.dir ?? ctx.config.webDir ?? defaultWebDir();
  const headers = webSecurityHeaders(ctx.config.publicUrl);
  const compressed = new CompressionCache();
  const app = new Hono();

  const config = { supabaseUrl: ctx.config.publicUrl, supabaseAnonKey: ctx.keys.anonKey };
  const withConfig = inlineConfig(config);

  app.get('/config.json', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(config);
  });

  app.get('*', async (c, next) => {
    // Leave API paths to their routers, wherever those are mounted.
    if (RESERVED.test(c.req.path)) {
      return next();
    }
    if (!existsSync(path.join(root, 'index.html'))) {
      return c.html(NOT_BUILT_HTML, 503, { ...headers, 'Cache-Control': 'no-store' });
    }
    const file = await resolveFile(root, new URL(c.req.url).pathname);
    if (file) {
      const cache = file.startsWith(path.join(root, 'assets') + path.sep) ? IMMUTABLE : 'no-cache';
      return send(
        file,
        { ...headers, 'Cache-Control': cache },
        c.req.header('accept-encoding'),
        compressed,
        withConfig,
      );
    }
    // A missing file (has an extension or lives under /assets/) is a 404; anything else is an app route.
    const last = c.req.path.split('/').pop() ?? '';
    if (c.req.path.startsWith('/assets/') || last.includes('.')) {
      return c.text('Not found', 404, headers);
    }
    return send(
      path.join(root, 'index.html'),
      { ...headers, 'Cache-Control': 'no-cache' },
      c.req.header('accept-encoding'),
      compressed,
      withConfig,
    );
  });
  return app;
}

/**
 * Writes the runtime config into an HTML page as a JSON data block (never executed, so the CSP has nothing
 * to allow), before </head>: the app reads it instead of fetching /config.json, one round trip less on
 * every page load. `<` is escaped, so no value can end the element.
 */
export function inlineConfig(config: object): (html: Buffer) => Buffer {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  const tag = `<script type="application/json" id="${INLINE_CONFIG_ELEMENT_ID}">${json}</script>`;
  return (html) => {
    const text = html.toString('utf8');
    const at = text.indexOf('</head>');
    return at < 0 ? html : Buffer.from(text.slice(0, at) + tag + text.slice(at), 'utf8');
  };
}

/**
 * The file under `root` a URL path names, or null. Guards the file system: the decoded path must stay
 * inside root (no `..`, backslashes, NUL or dot-files), and only regular files are served.
 */
async function resolveFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (/[\\\0]/.test(decoded) || decoded.split('/').some((s) => s.startsWith('.'))) {
    return null;
  }
  const file = path.resolve(root, `.${decoded}`);
  if (!file.startsWith(root + path.sep)) {
    return null;
  }
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? file : null;
}

async function send(
  file: string,
  headers: Record<string, string>,
  acceptEncoding: string | undefined,
  cache: CompressionCache,
  htmlTransform: (html: Buffer) => Buffer,
): Promise<Response> {
  const type = getMimeType(file) ?? 'application/octet-stream';
  const info = await stat(file);
  const encoding = chooseEncoding(acceptEncoding, type, info.size);
  const base = { ...headers, 'Content-Type': type, Vary: 'Accept-Encoding' };
  const read = type.startsWith('text/html')
    ? async () => htmlTransform(await readFile(file))
    : () => readFile(file);
  if (!encoding) {
    return new Response(await read(), { headers: base });
  }
  // A cache hit reads nothing but the file's metadata.
  const version = `${file}:${info.size}:${info.mtimeMs}`;
  return new Response(await cache.get(version, encoding, read), {
    headers: { ...base, 'Content-Encoding': encoding },
  });
}
