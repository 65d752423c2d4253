import os from 'node:os';
import path from 'node:path';
import { readSettings, StackSettings } from '../shared/settings.ts';
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

let fromProcess: ReturnType<typeof readSettings<typeof StackSettings>> | undefined;

/** The stack's settings from this process's environment, parsed and validated once. */
export function processSettings() {
  fromProcess ??= readSettings(StackSettings, process.env);
  return fromProcess;
}

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
  /** VIGIL_CREDENTIALS_KEY: seals target logins; else a key file in the data dir (server/credentials-key.ts). */
  credentialsKey?: string;
  /** Where the web build is served from (VIGIL_WEB_DIR); dist/web when unset. */
  webDir?: string;
  /** Tunables of /auth/v1 (token lifetimes, rate limits); defaults in server/auth/settings.ts. */
  auth?: AuthSettingsPatch;
}

/** Reads and validates the environment, failing with a readable list of what is wrong. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<StackConfig> = {},
): StackConfig {
  const e = readSettings(StackSettings, env);
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
    ...((overrides.credentialsKey ?? e.VIGIL_CREDENTIALS_KEY)
      ? { credentialsKey: overrides.credentialsKey ?? e.VIGIL_CREDENTIALS_KEY }
      : {}),
    ...(overrides.auth ? { auth: overrides.auth } : {}),
    ...((overrides.webDir ?? e.VIGIL_WEB_DIR) ? { webDir: overrides.webDir ?? e.VIGIL_WEB_DIR } : {}),
  };
}
