// Build step of `npm run build:web` (run by the vigil-prerender plugin in vite.config.ts after the client
// build): renders the prerendered pages of renderer/src/app/shells.ts (landing, /auth) to static HTML with
// react-dom/static and writes them into dist/web/index.html, so the first paint needs no JavaScript.
// The HTML carries no inline script (the CSP forbids them): theme-init.js shows the shell for the path,
// and main.tsx hydrates it.
import { rm, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import react from '@vitejs/plugin-react';
import { transform } from 'esbuild';
import { build } from 'vite';

interface Shell {
  name: string;
  paths: string[];
  visitorOnly: boolean;
}

interface PrerenderModule {
  SHELLS: readonly Shell[];
  SHELLS_META: string;
  renderShell(path: string): Promise<string>;
}

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** The <head> additions: the shell table for theme-init.js, and CSS showing only the chosen shell. */
export function shellHead(shells: readonly Shell[], metaName: string): string {
  const table = shells.map(({ name, paths, visitorOnly }) => ({ name, paths, visitorOnly }));
  const shown = shells.map(({ name }) => `html[data-shell='${name}'] body > [data-shell='${name}']`);
  return [
    `<meta name="${metaName}" content="${escapeAttribute(JSON.stringify(table))}" />`,
    `<style>body > [data-shell] { display: none } ${shown.join(', ')} { display: block }</style>`,
  ].join('\n    ');
}

/** Chunks a first visit to some paths needs at once: theme-init.js preloads them beside the entry. */
export interface RoutePreload {
  paths: string[];
  files: string[];
  /** Only for a visitor who may be signed in (a signed-out visitor is sent elsewhere). */
  signedIn: boolean;
}

/**
 * Moves Vite's entry script and module preloads into <meta name="vigil-entry"> for theme-init.js, which
 * starts them after the first paint of a prerendered page (at once otherwise), so the app's code does not
 * compete with the HTML and CSS that paint the page.
 */
export function deferEntry(html: string, session: string[] = [], routes: RoutePreload[] = []): string {
  const entry = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
  // Guards against an entry tag this step does not recognise: the page would never load its code.
  if (!entry?.[1]) {
    throw new Error('prerender: index.html has no module entry script');
  }
  const preloads = [...html.matchAll(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g)];
  let out = html.replace(entry[0], '');
  for (const preload of preloads) {
    out = out.replace(preload[0], '');
  }
  const preload = preloads.map((p) => p[1]);
  const known = (f: string) => f === entry[1] || preload.includes(f);
  const content = {
    entry: entry[1],
    preload,
    session: session.filter((f) => !known(f)),
    // A signed-in path's files are fetched beside the session chunks: not listed twice either.
    routes: routes.map((r) => ({
      ...r,
      files: r.files.filter((f) => !known(f) && !(r.signedIn && session.includes(f))),
    })),
  };
  const meta = `<meta name="vigil-entry" content="${escapeAttribute(JSON.stringify(content))}" />`;
  return out.replace(
    '<script src="/theme-init.js"></script>',
    `${meta}\n    <script src="/theme-init.js"></script>`,
  );
}

/**
 * index.html with the shells' HTML in <body> (before #root) and their table and CSS in <head>. A shell is
 * inert until main.tsx has hydrated it: it looks ready at once, but takes no clicks it could not handle.
 */
export function injectShells(html: string, head: string, bodies: { name: string; html: string }[]): string {
  const marker = '<script src="/theme-init.js"></script>';
  const root = '<div id="root"></div>';
  // Guards against an index.html this step does not understand: better no prerender than a broken page.
  if (!html.includes(marker) || !html.includes(root) || html.includes('data-shell=')) {
    throw new Error('prerender: index.html lacks the theme-init script or #root, or is prerendered already');
  }
  const shells = bodies
    .map(({ name, html: body }) => `<div data-shell="${name}" inert>${body}</div>`)
    .join('\n    ');
  return html.replace(marker, `${head}\n    ${marker}`).replace(root, `${shells}\n    ${root}`);
}

type Manifest = Record<string, { file: string; src?: string; imports?: string[] }>;

/**
 * The route modules a first visit to these paths renders: main.tsx loads them (resolveRoutes) before its
 * first render, so without a preload they would wait for the entry to run. Mirrors app/router.tsx.
 */
export const ROUTE_MODULES: readonly { paths: string[]; modules: string[]; signedIn: boolean }[] = [
  { paths: ['/', '/home'], modules: ['src/app/routes/landing.tsx'], signedIn: false },
  {
    paths: ['/auth'],
    modules: ['src/app/query-layout.tsx', 'src/app/routes/auth/auth.tsx'],
    signedIn: false,
  },
  {
    paths: ['/dashboard'],
    modules: [
      'src/app/query-layout.tsx',
      'src/app/routes/require-aal2.tsx',
      'src/app/routes/dashboard/layout.tsx',
      'src/app/routes/dashboard/home.tsx',
    ],
    signedIn: true,
  },
];

/** The chunk of `module` and every chunk it imports statically, as absolute paths. */
function chunksOf(manifest: Manifest, module: string): string[] {
  const start = Object.keys(manifest).find((key) => key.endsWith(module));
  // Guards against a renamed module: the preload would silently stop, so the build says so.
  if (!start) {
    throw new Error(`prerender: the manifest has no chunk for ${module}`);
  }
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (chunk && !files.has(`/${chunk.file}`)) {
      files.add(`/${chunk.file}`);
      chunk.imports?.forEach(visit);
    }
  };
  visit(start);
  return [...files];
}

/**
 * From Vite's manifest (which is then removed): the supabase-js chunk and everything it imports (with a
 * stored session theme-init.js preloads them beside the entry, as the session check needs them at once),
 * and the chunks of each path of ROUTE_MODULES.
 */
export async function preloadChunks(outDir: string): Promise<{ session: string[]; routes: RoutePreload[] }> {
  const manifestDir = path.join(outDir, '.vite');
  const manifest = JSON.parse(await readFile(path.join(manifestDir, 'manifest.json'), 'utf8')) as Manifest;
  await rm(manifestDir, { recursive: true, force: true });
  const routes = ROUTE_MODULES.map(({ paths, modules, signedIn }) => ({
    paths,
    signedIn,
    files: [...new Set(modules.flatMap((module) => chunksOf(manifest, module)))],
  }));
  return { session: chunksOf(manifest, 'src/lib/supabase-client.ts'), routes };
}

/** theme-init.js is copied as written (with its comments); the served copy is minified. */
async function minifyBootScript(file: string): Promise<void> {
  const { code } = await transform(await readFile(file, 'utf8'), { minify: true, target: 'es2015' });
  await writeFile(file, code);
}

export async function prerenderShells(options: { root: string; outDir: string }): Promise<string[]> {
  // Inside node_modules/.cache so Node resolves the externalised packages (react, react-router…).
  const work = path.resolve(options.root, '../node_modules/.cache/vigil-prerender');
  await build({
    configFile: false,
    root: options.root,
    logLevel: 'warn',
    plugins: [react()],
    build: {
      ssr: 'src/app/prerender.tsx',
      outDir: work,
      emptyOutDir: true,
      target: 'node20',
      sourcemap: false,
      rollupOptions: { output: { entryFileNames: 'prerender.js' } },
    },
  });
  try {
    const module = (await import(pathToFileURL(path.join(work, 'prerender.js')).href)) as PrerenderModule;
    const bodies = [];
    for (const shell of module.SHELLS) {
      bodies.push({ name: shell.name, html: await module.renderShell(shell.paths[0] ?? '/') });
    }
    const indexFile = path.join(options.outDir, 'index.html');
    const html = await readFile(indexFile, 'utf8');
    const head = shellHead(module.SHELLS, module.SHELLS_META);
    const { session, routes } = await preloadChunks(options.outDir);
    await writeFile(indexFile, deferEntry(injectShells(html, head, bodies), session, routes));
    await minifyBootScript(path.join(options.outDir, 'theme-init.js'));
    return bodies.map((b) => b.name);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
