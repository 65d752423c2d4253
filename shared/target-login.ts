// A scan target's login, as the customer enters it (Security Automation), the edge function seals it and
// the agent worker opens it for an authenticated web scan. One schema for all three, so what the form
// accepts is exactly what the backend stores and the scanner understands.
import { z } from 'zod';

/** A form field named by its name or id attribute, or a CSS selector. */
const fieldRef = z
  .string()
  .trim()
  .min(1, 'Name the field (its name or id, or a CSS selector).')
  .max(200)
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  .refine((v) => !/[\u0000-\u001f]/.test(v), 'No control characters.');

const secret = (what: string) =>
  z
    .string()
    .min(1, `Enter the ${what}.`)
    .max(1024, `The ${what} is too long (1024 characters at most).`)
    // eslint-disable-next-line no-control-regex -- a NUL or line break would split a header or form field
    .refine((v) => !/[\r\n\u0000]/.test(v), `The ${what} must be one line.`);

/** Text that appears on every page of the app while logged in (a "Log out" link, the user's name). */
const marker = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((v) => (v === '' ? undefined : v));

const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => {
    try {
      return /^https?:$/.test(new URL(v).protocol);
    } catch {
      return false;
    }
  }, 'Enter the full http:// or https:// address of the login page.');

/** RFC 7230 token: what a header name may be. */
const headerName = z
  .string()
  .trim()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'Not a valid header name.');

/** name=value pairs separated by "; ", as a Cookie header carries them. */
const cookiePairs = secret('cookie').refine(
  (v) => v.split(';').every((pair) => /^\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+=[^;,\s]*\s*$/.test(pair)),
  'Enter the cookie as name=value (several separated by "; ").',
);

export const TargetLogin = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('form'),
    login_url: httpUrl,
    username_field: fieldRef,
    password_field: fieldRef,
    username: secret('user name'),
    password: secret('password'),
    /** The submit button, when the form has several (name, id or CSS selector). */
    submit: fieldRef.optional(),
    logged_in_marker: marker,
  }),
  z.object({
    kind: z.literal('cookie'),
    cookie: cookiePairs,
    logged_in_marker: marker,
  }),
  z.object({
    kind: z.literal('header'),
    header_name: headerName.default('Authorization'),
    header_value: secret('header value'),
    logged_in_marker: marker,
  }),
]);
export type TargetLogin = z.infer<typeof TargetLogin>;
export type TargetLoginKind = TargetLogin['kind'];

/** What the customer may see of a saved login: its kind and where it signs in, never a credential. */
export function loginSummary(login: TargetLogin): { kind: TargetLoginKind; login_url: string | null } {
  return { kind: login.kind, login_url: login.kind === 'form' ? login.login_url : null };
}
