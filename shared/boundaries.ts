// Small zod/mini schemas for what the renderer checks at start-up (runtime config, stored role selection,
// local error records). They live apart from validation.ts (classic zod, used by forms) so the first
// page load does not carry the whole of classic zod.
import * as z from 'zod/mini';

/** /config.json of the web build: public values only (ARCHITECTURE.md §4). */
export const runtimeConfigSchema = z.object({
  supabaseUrl: z.url({ protocol: /^https?$/, error: 'supabaseUrl must be an http(s) URL' }),
  supabaseAnonKey: z.string().check(z.minLength(1, 'supabaseAnonKey is required')),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/** The "selectedAgentRoles" session-storage entry and the /auth return state (SPEC point 4). */
export const selectedRolesSchema = z
  .array(z.string().check(z.minLength(1), z.maxLength(100)))
  .check(z.maxLength(50));
