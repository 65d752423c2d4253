import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { AuthSettingsPatch } from './auth/settings.ts';

/** The OS's per-user application-data folder, as Electron's app.getPath('appData') resolves it. */
export function defaultDataDir(): string {
  const home = os.homedir();
  switch (process.platform) {
    case 'win32':
      return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'vigil');
    case 'darwin':
      return path.join(home, 'Library', 'Application Support', 'vigil');
    default:
      return path.join(process.env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'vigil');
  }
}

const list = z
  .string()
  .optional()
  .transform((s) =>
    (s ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes'].includes(v)));

const EnvSchema = z.object({
  VIGIL_PORT: z.coerce.number().int().min(0).max(65535).default(54321),
  VIGIL_HOST: z.string().min(1).default('127.0.0.1'),
  VIGIL_DATA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z.string().url().optional(),
  VIGIL_PUBLIC_URL: z.string().url().optional(),
  VIGIL_SITE_URL: z.string().url().optional(),
  VIGIL_REDIRECT_URLS: list,
  VIGIL_AUTOCONFIRM: bool(false),
  VIGIL_LOCAL_MODE: bool(true),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('Vigil <no-reply@vigil.local>'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
});

export interface StackConfig {
  port: number;
  host: string;
  /** 'memory' or a directory. */
  dataDir: string;
  databaseUrl: string | undefined;
  /** The URL clients use to reach the API; also the JWT issuer base. */
  publicUrl: string;
  /** Where e-mail links land by default (GoTrue's SITE_URL): the web app. */
  siteUrl: string;
  /** redirect_to values accepted besides siteUrl (GoTrue's URI allow list; '*' and '**' globs). */
  redirectUrls: string[];
  autoconfirm: boolean;
  /** Local mode allows scanning loopback and private targets (the embedded stack on one machine). */
  localMode: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  /** Tunables of /auth/v1 (token lifetimes, rate limits); defaults in server/auth/settings.ts. */
  auth?: AuthSettingsPatch;
}

/** Reads and validates the environment, failing with a readable list of what is wrong. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<StackConfig> = {},
): StackConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const port = overrides.port ?? e.VIGIL_PORT;
  const host = overrides.host ?? e.VIGIL_HOST;
  const publicUrl = (overrides.publicUrl ?? e.VIGIL_PUBLIC_URL ?? `http://${host}:${port}`).replace(
    /\/$/,
    '',
  );
  const siteUrl = (overrides.siteUrl ?? e.VIGIL_SITE_URL ?? publicUrl).replace(/\/$/, '');
  return {
    port,
    host,
    dataDir: overrides.dataDir ?? e.VIGIL_DATA_DIR ?? defaultDataDir(),
    databaseUrl: overrides.databaseUrl ?? e.DATABASE_URL,
    publicUrl,
    siteUrl,
    redirectUrls: overrides.redirectUrls ?? [
      ...e.VIGIL_REDIRECT_URLS,
      'vigil://**',
      'http://localhost:*/**',
      'http://127.0.0.1:*/**',
    ],
    autoconfirm: overrides.autoconfirm ?? e.VIGIL_AUTOCONFIRM,
    localMode: overrides.localMode ?? e.VIGIL_LOCAL_MODE,
    smtpUrl: overrides.smtpUrl ?? e.SMTP_URL,
    mailFrom: overrides.mailFrom ?? e.MAIL_FROM,
    stripeSecretKey: overrides.stripeSecretKey ?? e.STRIPE_SECRET_KEY,
    stripeWebhookSecret: overrides.stripeWebhookSecret ?? e.STRIPE_WEBHOOK_SECRET,
    ...(overrides.auth ? { auth: overrides.auth } : {}),
  };
}
