// Vite: builds the React renderer (renderer/) into dist/web; the same bundle serves the web and the desktop app.
// After the client build, the landing page and /auth are prerendered into index.html (scripts/prerender.ts).
import { fileURLToPath } from 'node:url';

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

import { prerenderShells } from './scripts/prerender.ts';

const root = fileURLToPath(new URL('./renderer', import.meta.url));
// VIGIL_WEB_DIR builds elsewhere (the stack serves it from there too): parallel builds do not collide.
const outDir = process.env.VIGIL_WEB_DIR ?? fileURLToPath(new URL('./dist/web', import.meta.url));

function prerender(): Plugin {
  return {
    name: 'vigil-prerender',
    apply: 'build',
    async closeBundle() {
      const shells = await prerenderShells({ root, outDir });
      this.info(`prerendered into index.html: ${shells.join(', ')}`);
    },
  };
}

export default defineConfig({
  root,
  envDir: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react(), tailwindcss(), prerender()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // Every browser of the es2022 target supports <link rel=modulepreload>: no polyfill in the entry.
    modulePreload: { polyfill: false },
    // Read by scripts/prerender.ts (which chunks a signed-in start needs), then removed.
    manifest: true,
  },
  server: { port: 5173, strictPort: false, host: '127.0.0.1' },
});
