// `npm run build:desktop`: bundles the Electron main process and preload into dist/electron (CommonJS,
// `electron` left external). The renderer is the same build as the web app (dist/web).
import { build, type BuildOptions } from 'esbuild';

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  external: ['electron'],
  sourcemap: true,
  logLevel: 'warning',
};

await build({ ...common, entryPoints: ['electron/main/index.ts'], outfile: 'dist/electron/main.cjs' });
// The sandboxed preload may require only 'electron': everything else is bundled into it.
await build({ ...common, entryPoints: ['electron/preload/index.ts'], outfile: 'dist/electron/preload.cjs' });
console.log('built dist/electron/main.cjs and dist/electron/preload.cjs');
