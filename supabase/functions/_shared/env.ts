/**
 * Environment access for edge functions. On Supabase's edge runtime (Deno) variables come from
 * Deno.env; when the embedded stack imports a handler in Node they come from process.env. Both are
 * looked up on globalThis with a narrow type, so function code never depends on Node's or Deno's types.
 */
interface DenoLike {
  env: { get(name: string): string | undefined };
}
interface ProcessLike {
  env: Record<string, string | undefined>;
}

export function getEnv(name: string): string | undefined {
  const g = globalThis as unknown as { Deno?: DenoLike; process?: ProcessLike };
  if (g.Deno) {
    return g.Deno.env.get(name);
  }
  return g.process?.env[name];
}

/** A required variable; a missing one is a deployment fault, reported as such. */
export function requireEnv(name: string): string {
  const value = getEnv(name);
  if (!value) {
    throw new Error(`Missing environment variable ${name}`);
  }
  return value;
}
