// zod compiles object parsers with `new Function` when it may; the CSP has no 'unsafe-eval', so even its
// probe for eval is a reported violation. zod takes its global configuration from
// globalThis.__zod_globalConfig when it first loads (zod/v4/core/core.js keeps an existing object), so
// setting `jitless` there before any zod module runs makes every schema parse without code generation, and
// the landing page, which uses no zod, does not load zod just to configure it (zod-jitless.test.ts checks
// that zod still honours it).
declare global {
  var __zod_globalConfig: Record<string, unknown> | undefined;
}

globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

export {};
