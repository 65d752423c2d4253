// Runtime configuration, validated at start-up: the web build reads the config the embedded stack wrote
// into the page, else /config.json, so one build serves any backend; `npm run dev:web` may use
// VITE_SUPABASE_URL / VITE_SUPABASE_ANON_KEY instead.
import {
  checkRuntimeConfig,
  INLINE_CONFIG_ELEMENT_ID,
  type RuntimeConfig,
} from '../../../shared/boundaries.ts';
import { ConfigError } from './config-error.ts';

export function parseRuntimeConfig(raw: unknown): RuntimeConfig {
  const checked = checkRuntimeConfig(raw);
  if (!checked.ok) {
    throw new ConfigError(checked.issues);
  }
  return checked.value;
}

/** The text of the config the embedded stack wrote into this page, if it did (server/web/routes.ts). */
const pageConfigText = (): string | null =>
  globalThis.document?.getElementById(INLINE_CONFIG_ELEMENT_ID)?.textContent ?? null;

/** The config written into the page, or null when there is none or it is unusable (then fetch it). */
function inlineConfig(text: string | null): RuntimeConfig | null {
  if (!text) {
    return null;
  }
  try {
    const checked = checkRuntimeConfig(JSON.parse(text));
    return checked.ok ? checked.value : null;
  } catch {
    return null;
  }
}

export async function loadRuntimeConfig(
  fetchImpl: typeof fetch = fetch,
  pageConfig: () => string | null = pageConfigText,
): Promise<RuntimeConfig> {
  const env = import.meta.env as Record<string, unknown>;
  if (typeof env.VITE_SUPABASE_URL === 'string' && env.VITE_SUPABASE_URL !== '') {
    return parseRuntimeConfig({
      supabaseUrl: env.VITE_SUPABASE_URL,
      supabaseAnonKey: env.VITE_SUPABASE_ANON_KEY,
    });
  }
  const inline = inlineConfig(pageConfig());
  if (inline) {
    return inline;
  }
  const response = await fetchImpl('/config.json', { cache: 'no-store' });
  if (!response.ok) {
    throw new ConfigError([`/config.json answered ${response.status}`]);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ConfigError(['/config.json is not valid JSON']);
  }
  return parseRuntimeConfig(body);
}

/** Where the config comes from: the desktop's main process when there is one, else /config.json. */
export interface ConfigSource {
  runtimeConfig: (() => Promise<unknown>) | null;
}

const loaded = new WeakMap<ConfigSource, Promise<RuntimeConfig>>();

/**
 * The runtime config, read once per page load and shared by every caller (the supabase-js client, the
 * keepalive metrics client, the landing catalogue). A failed read is forgotten, so the next call retries.
 */
export function runtimeConfigFrom(source: ConfigSource): Promise<RuntimeConfig> {
  let pending = loaded.get(source);
  if (!pending) {
    pending = (
      source.runtimeConfig ? source.runtimeConfig().then(parseRuntimeConfig) : loadRuntimeConfig()
    ).catch((error: unknown) => {
      loaded.delete(source);
      throw error;
    });
    loaded.set(source, pending);
  }
  return pending;
}
