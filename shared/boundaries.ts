// What the renderer checks before any form is on screen: /config.json, the stored agent selection and the
// catalogue rows. Plain guards rather than zod, on purpose: they run on the landing page, whose script budget
// (≤ 150 KB gzip, bench/web.ts) cannot carry zod's core, a chunk shared by every schema of the app that grows
// with each form. Forms and every other boundary use zod (validation.ts).

/** /config.json of the web build: public values only (docs/architecture.md §5). */
export interface RuntimeConfig {
  supabaseUrl: string;
  supabaseAnonKey: string;
}

/**
 * The element in which the embedded stack writes the same values into each HTML page it serves (a JSON data
 * block), so the web app starts without a /config.json round trip. Static hosting has none: the app fetches.
 */
export const INLINE_CONFIG_ELEMENT_ID = 'vigil-runtime-config';

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: string[] };

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The runtime config, or each problem as `field: message`. */
export function checkRuntimeConfig(raw: unknown): Checked<RuntimeConfig> {
  if (!isRecord(raw)) {
    return { ok: false, issues: ['config: must be a JSON object'] };
  }
  const { supabaseUrl, supabaseAnonKey } = raw;
  const url = typeof supabaseUrl === 'string' && isHttpUrl(supabaseUrl) ? supabaseUrl : null;
  const key = typeof supabaseAnonKey === 'string' && supabaseAnonKey !== '' ? supabaseAnonKey : null;
  if (url !== null && key !== null) {
    return { ok: true, value: { supabaseUrl: url, supabaseAnonKey: key } };
  }
  const issues: string[] = [];
  if (url === null) {
    issues.push('supabaseUrl: supabaseUrl must be an http(s) URL');
  }
  if (key === null) {
    issues.push('supabaseAnonKey: supabaseAnonKey is required');
  }
  return { ok: false, issues };
}

const MAX_SELECTED_ROLES = 50;
const MAX_ROLE_ID_LENGTH = 100;

/**
 * The "selectedAgentRoles" session-storage entry and the /auth return state (docs/product.md §4): at most 50
 * role ids of 1–100 characters, or null when the value is anything else.
 */
export function checkSelectedRoles(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length > MAX_SELECTED_ROLES) {
    return null;
  }
  const ids = value.filter(
    (id): id is string => typeof id === 'string' && id.length > 0 && id.length <= MAX_ROLE_ID_LENGTH,
  );
  return ids.length === value.length ? ids : null;
}
