import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { moduleEntry } from '../../shared/module-entry.ts';

export type FunctionHandler = (req: Request) => Promise<Response> | Response;

export interface EdgeFunction {
  name: string;
  /** false when supabase/config.toml says `[functions.<name>] verify_jwt = false` (webhooks). */
  verifyJwt: boolean;
  load(): Promise<FunctionHandler>;
}

/** Function names as the Supabase CLI allows them; also keeps every lookup inside the functions folder. */
export const FUNCTION_NAME = /^[a-z0-9][a-z0-9-]*$/;

export const defaultFunctionsDir = () => path.resolve(import.meta.dirname, '../../supabase/functions');

const FunctionsToml = z
  .object({
    functions: z.record(z.string(), z.object({ verify_jwt: z.boolean().optional() }).loose()).optional(),
  })
  .loose();

/** The names whose `verify_jwt` is switched off in supabase/config.toml (the CLI's per-function setting). */
export function readJwtOptOuts(configToml: string): Set<string> {
  if (!existsSync(configToml)) {
    return new Set();
  }
  const parsed = FunctionsToml.parse(parseToml(readFileSync(configToml, 'utf8')));
  const entries = Object.entries(parsed.functions ?? {});
  return new Set(entries.filter(([, f]) => f.verify_jwt === false).map(([name]) => name));
}

/**
 * Where a function's handler loads from: its handler.ts from source; in the built product the build's
 * `function-<name>` entry, for the functions of supabase/functions (the build bundles those only).
 */
function handlerModule(dir: string, name: string): string {
  const source = path.join(dir, name, 'handler.ts');
  const entry = moduleEntry(import.meta.url, pathToFileURL(source).href, `function-${name}`);
  return entry.typescript || path.resolve(dir) !== defaultFunctionsDir() ? source : fileURLToPath(entry.url);
}

/**
 * Finds the edge functions once at start-up: each folder of `dir` with a valid name and a handler.ts.
 * Handlers are imported on first use and kept.
 */
export function discoverFunctions(dir: string, configToml: string): Map<string, EdgeFunction> {
  const optOuts = readJwtOptOuts(configToml);
  const found = new Map<string, EdgeFunction>();
  if (!existsSync(dir)) {
    return found;
  }
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name, 'handler.ts');
    if (!entry.isDirectory() || !FUNCTION_NAME.test(entry.name) || !existsSync(file)) {
      continue;
    }
    let loading: Promise<FunctionHandler> | null = null;
    found.set(entry.name, {
      name: entry.name,
      verifyJwt: !optOuts.has(entry.name),
      load: () => (loading ??= importHandler(handlerModule(dir, entry.name))),
    });
  }
  return found;
}

async function importHandler(file: string): Promise<FunctionHandler> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  if (typeof mod.default !== 'function') {
    throw new Error(`${file} has no default export handler(req: Request): Promise<Response>`);
  }
  return mod.default as FunctionHandler;
}
