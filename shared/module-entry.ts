/**
 * Where a module that runs on a thread or in a process of its own is found. From source (tests, tools run
 * through tsx) it is the TypeScript file beside its caller, and the new thread or process must load tsx to
 * run it. In the built product (`dist/node`, what `npm start`, `npm run worker` and `npm run scan` run) it
 * is a plain JavaScript file of its own in the folder of the bundle that calls it, named in the build's
 * entry table (scripts/lib/node-build.mjs); scripts/lib/node-build.test.ts checks that every name used
 * here is one of them.
 */
export interface ModuleEntry {
  url: URL;
  /** true when the module is TypeScript source (its thread or process needs tsx's loader). */
  typescript: boolean;
}

/**
 * @param caller the calling module's `import.meta.url`
 * @param source the entry's source file, relative to the caller (`./scan-child.ts`)
 * @param built the entry's name in the build (`scan-child`: dist/node/scan-child.js)
 */
export function moduleEntry(caller: string, source: string, built: string): ModuleEntry {
  return runsFromSource(caller)
    ? { url: new URL(source, caller), typescript: true }
    : { url: new URL(`./${built}.js`, caller), typescript: false };
}

/** Whether the module at `url` (its `import.meta.url`) runs from its TypeScript source, not from the build. */
export function runsFromSource(url: string): boolean {
  return /\.[cm]?tsx?$/.test(new URL(url).pathname);
}
