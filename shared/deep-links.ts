import { z } from 'zod';

/** The app's URL scheme; e-mails and notifications open `vigil://…` links. */
export const DEEP_LINK_SCHEME = 'vigil';
/**
 * Longest link accepted. Sized for the biometric hand-off (auth/webauthn): a platform authenticator's
 * registration response as base64url JSON measured 1,573 characters for the whole link (Chromium, ES256, no
 * attestation, 32-byte credential id; tests/e2e/mfa-desktop.e2e.test.ts). The id appears three times and is
 * encoded twice, so 4 kB leaves room for ids of a few hundred bytes; every other link is far shorter.
 */
export const MAX_DEEP_LINK_LENGTH = 4096;
/** Longest base64url credential response in an auth/webauthn link. */
export const MAX_WEBAUTHN_RESPONSE_LENGTH = 3800;

const code = z.string().regex(/^[A-Za-z0-9-]{8,128}$/, 'a code is 8–128 letters, digits or dashes');
const errorText = z.string().max(500);
const authResult = z
  .object({
    code: code.optional(),
    error: z
      .string()
      .regex(/^[a-z_]{1,64}$/)
      .optional(),
    error_code: z
      .string()
      .regex(/^[a-z_]{1,64}$/)
      .optional(),
    error_description: errorText.optional(),
    sb: z.literal('').optional(),
  })
  .strict()
  .refine((p) => p.code !== undefined || p.error !== undefined, 'an auth link carries a code or an error');

const base64url = /^[A-Za-z0-9_-]+$/;
/** The web app's page that runs the biometric ceremony for the desktop app, in the system browser. */
export const WEBAUTHN_RELAY_PATH = '/auth/webauthn-relay';
/** Where the relay page returns its answer. */
export const WEBAUTHN_RETURN_LINK = `${DEEP_LINK_SCHEME}://auth/webauthn`;
/** The hand-off's state nonce, chosen by the desktop and echoed by the relay page. */
export const webauthnState = z
  .string()
  .regex(/^[A-Za-z0-9_-]{22,64}$/, 'state is 22–64 base64url characters');
/**
 * The biometric hand-off's answer (the relay page /auth/webauthn-relay in the system browser returns it): the
 * state nonce the desktop generated, and either the credential response or why there is none.
 */
const webauthnResult = z
  .object({
    state: webauthnState,
    response: z
      .string()
      .max(MAX_WEBAUTHN_RESPONSE_LENGTH)
      .regex(base64url, 'response is base64url')
      .optional(),
    error: z.enum(['cancelled', 'unsupported']).optional(),
  })
  .strict()
  .refine(
    (p) => (p.response === undefined) !== (p.error === undefined),
    'a webauthn link carries a response or an error, not both',
  );

/**
 * Every deep link the app accepts: the e-mail links of sign-up and password reset, the biometric hand-off's
 * answer, and the dashboard pages a notification opens. Anything else is refused. Keys are `host/path` of the `vigil://` URL; values say which
 * renderer route it opens and which query parameters it may carry (strict: no others).
 */
const ROUTES = {
  'auth/callback': { route: '/auth/callback', params: authResult },
  'auth/reset-password': { route: '/auth/reset-password', params: authResult },
  // Never navigated to: the renderer hands it to the biometric step waiting for its state.
  'auth/webauthn': { route: '/auth/webauthn', params: webauthnResult },
  dashboard: { route: '/dashboard', params: z.object({}).strict() },
  'dashboard/alerts': {
    route: '/dashboard/alerts',
    params: z.object({ event: z.string().uuid().optional() }).strict(),
  },
  'dashboard/security-automation': {
    route: '/dashboard/security-automation',
    params: z.object({ scan: z.string().uuid().optional() }).strict(),
  },
  'dashboard/reports': {
    route: '/dashboard/reports',
    params: z.object({ report: z.string().uuid().optional() }).strict(),
  },
  'dashboard/agents': { route: '/dashboard/agents', params: z.object({}).strict() },
  'dashboard/settings': { route: '/dashboard/settings', params: z.object({}).strict() },
} as const;

export type DeepLinkRoute = (typeof ROUTES)[keyof typeof ROUTES]['route'];

/** What the main process forwards to the renderer: a known route and validated parameters, never the raw link. */
export interface DeepLinkMessage {
  route: DeepLinkRoute;
  params: Record<string, string>;
}

export type DeepLinkResult = { ok: true; message: DeepLinkMessage } | { ok: false; reason: string };

const refuse = (reason: string): DeepLinkResult => ({ ok: false, reason });

/** Parses and validates one `vigil://` link. Pure: the same function serves all three operating systems. */
export function parseDeepLink(raw: unknown): DeepLinkResult {
  if (typeof raw !== 'string') {
    return refuse('not a string');
  }
  if (raw.length > MAX_DEEP_LINK_LENGTH) {
    return refuse('too long');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('not a URL');
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:`) {
    return refuse(`scheme ${url.protocol} is not ${DEEP_LINK_SCHEME}:`);
  }
  if (url.username || url.password || url.port) {
    return refuse('credentials or a port in the link');
  }
  // Decoded traversal or separators would let a link reach a route other than the one it names.
  const key = `${url.hostname}${url.pathname}`.replace(/\/+$/, '');
  if (/%|\\|\.\.|\/\//.test(key)) {
    return refuse('encoded or traversing path');
  }
  const entry = (ROUTES as Record<string, (typeof ROUTES)[keyof typeof ROUTES]>)[key.toLowerCase()];
  if (!entry) {
    return refuse(`unknown path ${key}`);
  }
  const params: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    if (k in params) {
      return refuse(`parameter ${k} given twice`);
    }
    params[k] = v;
  }
  const parsed = entry.params.safeParse(params);
  if (!parsed.success) {
    return refuse(`invalid parameters: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  return { ok: true, message: { route: entry.route, params: parsed.data } };
}

/** The first `vigil://` argument of a process's argv (Windows and Linux pass links on the command line). */
export function deepLinkFromArgv(argv: readonly string[]): string | undefined {
  return argv.find((a) => a.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}://`));
}
