// Every setting Vigil reads from the environment, parsed in one place with one vocabulary (docs/product.md §17.9):
// the stack, `npm start`'s in-process worker, `npm run worker`, the scanners' CLI and the desktop app all
// read their settings through `readSettings`, so `VIGIL_LOCAL_MODE=false` means the same everywhere, and a
// value that means nothing (`VIGIL_LOCAL_MODE=maybe`, a misspelt `VIGIL_LOCALMODE`) stops the process at
// start-up with a list of what is wrong instead of being read as a default.
import { z } from 'zod';

/** The environment as a process sees it (process.env, or a test's own record). */
export type Env = Readonly<Record<string, string | undefined>>;

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/** true/false, 1/0, yes/no, on/off in any case; absent or empty is the default. */
const flag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const v = raw?.trim().toLowerCase() ?? '';
      if (v === '') {
        return fallback;
      }
      if (TRUE.includes(v)) {
        return true;
      }
      if (FALSE.includes(v)) {
        return false;
      }
      ctx.addIssue({ code: 'custom', message: `"${raw}" is not one of ${[...TRUE, ...FALSE].join(', ')}` });
      return z.NEVER;
    });

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const url = (protocols: RegExp) =>
  optionalText.pipe(z.url({ protocol: protocols, message: 'must be an absolute URL' }).optional());

const commaList = z
  .string()
  .optional()
  .transform((s) =>
    (s ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );

const integer = (fallback: number, min: number, max: number) =>
  optionalText
    .pipe(z.string().regex(/^\d+$/, 'must be a whole number').optional())
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .pipe(z.number().int().min(min).max(max));

/**
 * The key that seals scan-target logins (AES-256-GCM): 32 random bytes as base64 or hex. It is never
 * stored in the database; the embedded stack keeps one in its data dir unless this is set.
 */
const credentialsKey = optionalText.pipe(
  z
    .string()
    .regex(
      /^(?:[A-Za-z0-9+/]{43}=|[0-9a-fA-F]{64})$/,
      'must be 32 bytes as base64 (44 characters) or hex (64)',
    )
    .optional(),
);

/** Settings of the embedded stack (server/). */
export const StackSettings = z.object({
  VIGIL_PORT: integer(54321, 0, 65535),
  VIGIL_HOST: optionalText.transform((v) => v ?? '127.0.0.1'),
  VIGIL_DATA_DIR: optionalText,
  DATABASE_URL: url(/^postgres(ql)?$/),
  VIGIL_PUBLIC_URL: url(/^https?$/),
  VIGIL_SITE_URL: url(/^https?$/),
  VIGIL_REDIRECT_URLS: commaList,
  VIGIL_AUTOCONFIRM: flag(false),
  VIGIL_LOCAL_MODE: flag(true),
  SMTP_URL: url(/^smtps?$/),
  MAIL_FROM: optionalText.transform((v) => v ?? 'Vigil <no-reply@vigil.local>'),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  VIGIL_WEB_DIR: optionalText,
  VIGIL_CACHE_DIR: optionalText,
  VIGIL_CREDENTIALS_KEY: credentialsKey,
});
export type StackSettings = z.infer<typeof StackSettings>;

/** Settings of a separate agent worker (`npm run worker`). */
export const WorkerSettings = z.object({
  SUPABASE_URL: url(/^https?$/),
  SUPABASE_SERVICE_ROLE_KEY: optionalText,
  /** Off by default for a separate worker: it may run anywhere, so the hosted policy is the safe one. */
  VIGIL_LOCAL_MODE: flag(false),
  VIGIL_WORKER_CONCURRENCY: integer(2, 1, 32),
  SMTP_URL: url(/^smtps?$/),
  MAIL_FROM: optionalText.transform((v) => v ?? 'Vigil <alerts@vigil.local>'),
  /** Opens the logins of targets for authenticated scans; without it those scans fail, saying why. */
  VIGIL_CREDENTIALS_KEY: credentialsKey,
});
export type WorkerSettings = z.infer<typeof WorkerSettings>;

/** Settings of the scanners, wherever they run (the worker, `npm run scan`). */
export const ScannerSettings = z.object({
  /** nmap -sV for version names, when installed. */
  VIGIL_SCAN_NMAP: flag(true),
  /** Raw TCP (SYN-less connect with a shorter path) for the port sweep. */
  VIGIL_SCAN_RAW_TCP: flag(true),
  /** The web scan runs the page's JavaScript in a headless Chromium when one is installed. */
  VIGIL_SCAN_BROWSER: flag(true),
  /** The Chromium the browser crawl drives (default /usr/bin/chromium, Debian's package). */
  CHROMIUM_PATH: optionalText,
  /**
   * A PEM file of extra trust anchors for the TLS chain check (an organisation's internal CA), trusted
   * besides the system store; the machine's own store is never changed.
   */
  VIGIL_SCAN_TLS_CA_FILE: optionalText,
  /** Every scan's time limit in minutes, instead of its type's default (web 20, API 10, infrastructure 30). */
  VIGIL_SCAN_MAX_MINUTES: optionalText
    .pipe(z.string().regex(/^\d+$/, 'must be a whole number of minutes').optional())
    .transform((v) => (v === undefined ? undefined : Number(v)))
    .pipe(z.number().int().min(1).max(1440).optional()),
  /**
   * The memory cap in MB of every scan's processes (Chromium included), instead of its type's default
   * (web 2048, API and infrastructure 768).
   */
  VIGIL_SCAN_MAX_MEMORY_MB: optionalText
    .pipe(z.string().regex(/^\d+$/, 'must be a whole number of MB').optional())
    .transform((v) => (v === undefined ? undefined : Number(v)))
    .pipe(z.number().int().min(256).max(65536).optional()),
});
export type ScannerSettings = z.infer<typeof ScannerSettings>;

/** Settings of the desktop app's main process. */
export const DesktopSettings = z.object({
  VIGIL_API_URL: url(/^https?$/),
  VIGIL_WEB_URL: url(/^https?$/),
  VIGIL_UPDATE_URL: url(/^https?$/),
});
export type DesktopSettings = z.infer<typeof DesktopSettings>;

/** Tools' own settings, read by the test and bench harnesses (not by the product). */
const TOOL_PREFIXES = ['VIGIL_TEST_', 'VIGIL_BENCH_'];

/** Every VIGIL_ setting any piece reads: a name outside this list is a typo. */
export const KNOWN_SETTINGS: ReadonlySet<string> = new Set(
  [StackSettings, WorkerSettings, ScannerSettings, DesktopSettings].flatMap((s) => Object.keys(s.shape)),
);

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'SettingsError';
  }
}

/**
 * Parses the settings `schema` names from `env`, or throws SettingsError listing every value that means
 * nothing, and every VIGIL_ variable no piece of Vigil reads (a misspelt name would otherwise be ignored
 * and its default used: for VIGIL_LOCAL_MODE, the wrong target policy).
 */
export function readSettings<S extends z.ZodObject>(schema: S, env: Env): z.infer<S> {
  const problems: string[] = [];
  for (const name of Object.keys(env)) {
    if (
      name.startsWith('VIGIL_') &&
      !KNOWN_SETTINGS.has(name) &&
      !TOOL_PREFIXES.some((p) => name.startsWith(p))
    ) {
      problems.push(
        `${name}: not a Vigil setting (known: ${[...KNOWN_SETTINGS].filter((n) => n.startsWith('VIGIL_')).join(', ')})`,
      );
    }
  }
  const picked = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, env[name]]));
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(`${issue.path.join('.')}: ${issue.message}`);
    }
  }
  if (problems.length > 0 || !parsed.success) {
    throw new SettingsError(problems);
  }
  return parsed.data;
}
