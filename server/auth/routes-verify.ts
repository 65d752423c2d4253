import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import { AuthError, authError, Errors } from './errors.ts';
import type { AuthEnv } from './guard.ts';
import { issueAuthCode } from './pkce.ts';
import type { AuthLimits } from './limits.ts';
import { resolveRedirect } from './redirect.ts';
import { clientIp, readBody } from './request.ts';
import { EmailOtpType, validPhone, VerifyBody } from './schemas.ts';
import { issueSession } from './sessions.ts';
import { authSettings } from './settings.ts';
import { VERIFY_AMR, VERIFY_FLOW, verifyEmailToken } from './verify.ts';

/** GoTrue's answer to the first of the two links of a secure e-mail change. */
export const PENDING_MESSAGE =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

const VerifyQuery = z.object({ token: z.string().min(1).max(256), type: EmailOtpType });

/** GoTrue maps HTTP statuses to OAuth error names in redirect fragments. */
const OAUTH_ERROR: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  404: 'invalid_request',
  422: 'invalid_request',
  429: 'invalid_request',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

/** Adds `params` to the query (PKCE) and/or the fragment of `base`; `sb=` marks it as Supabase's. */
export function redirectWith(
  base: string,
  params: Record<string, string>,
  where: { query: boolean; fragment: boolean },
): string {
  const [withoutHash] = base.split('#');
  let url = withoutHash ?? base;
  if (where.query) {
    const qs = new URLSearchParams(params).toString();
    url += (url.includes('?') ? '&' : '?') + qs;
  }
  if (where.fragment) {
    url += `#${new URLSearchParams({ ...params, sb: '' }).toString()}`;
  }
  return url;
}

/** GET /verify (e-mail links) and POST /verify (token_hash or e-mail + code). */
export function mountVerify(app: Hono<AuthEnv>, ctx: StackContext, limits: AuthLimits): void {
  const limit = (c: Context) => limits.verify(clientIp(c));

  app.get('/verify', async (c) => {
    const redirectTo = resolveRedirect(ctx.config, c.req.query('redirect_to'));
    const rawToken = c.req.query('token') ?? '';
    const pkceLink = rawToken.startsWith('pkce_');
    const fail = (e: AuthError) => {
      const description = e.code === 'otp_expired' ? 'Email link is invalid or has expired' : e.message;
      const params = {
        error: OAUTH_ERROR[e.status] ?? 'server_error',
        error_code: e.code,
        error_description: description,
      };
      return c.redirect(redirectWith(redirectTo, params, { query: pkceLink, fragment: true }), 303);
    };
    try {
      await limit(c);
      const q = VerifyQuery.safeParse(c.req.query());
      if (!q.success) {
        throw Errors.validation('Verify requires a token and a valid type');
      }
      const { token, type } = q.data;
      const expiry = authSettings(ctx.config).otpExpirySeconds;
      const outcome = await ctx.db.transaction(async (tx) => {
        const verified = await verifyEmailToken(tx, type, { tokenHash: token }, expiry);
        if (verified.pending) {
          return { code: null, session: null };
        }
        if (verified.pkce) {
          const code = await issueAuthCode(tx, verified.user.id, VERIFY_FLOW[type]);
          if (!code) {
            throw authError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
          }
          return { code, session: null };
        }
        return {
          code: null,
          session: await issueSession(ctx, tx, verified.user, VERIFY_AMR[type], { ip: clientIp(c) }),
        };
      });
      const s = outcome.session;
      if (!s && !outcome.code) {
        return c.redirect(
          redirectWith(redirectTo, { message: PENDING_MESSAGE }, { query: pkceLink, fragment: true }),
          303,
        );
      }
      if (!s) {
        return c.redirect(
          redirectWith(redirectTo, { code: outcome.code ?? '' }, { query: true, fragment: false }),
          303,
        );
      }
      const params = {
        access_token: s.access_token,
        expires_at: String(s.expires_at),
        expires_in: String(s.expires_in),
        refresh_token: s.refresh_token,
        token_type: 'bearer',
        type,
      };
      return c.redirect(redirectWith(redirectTo, params, { query: false, fragment: true }), 303);
    } catch (e) {
      if (e instanceof AuthError) {
        return fail(e);
      }
      throw e;
    }
  });

  app.post('/verify', async (c) => {
    await limit(c);
    const body = await readBody(c, VerifyBody);
    if (body.phone && !body.email && !body.token_hash && body.token) {
      // GoTrue checks the number, then the code: no SMS is ever sent here, so no code is right.
      validPhone(body.phone);
      throw authError(403, 'otp_expired', 'Token has expired or is invalid');
    }
    if (body.type === 'sms' || body.type === 'phone_change') {
      throw authError(403, 'otp_expired', 'Token has expired or is invalid');
    }
    const type = body.type;
    let proof: { tokenHash: string } | { email: string; otp: string };
    if (body.token_hash) {
      // GoTrue refuses a token_hash mixed with identifiers: the hash alone names the token.
      if (body.email || body.phone) {
        throw Errors.validation('Only the token_hash and type should be provided');
      }
      proof = { tokenHash: body.token_hash };
    } else if (body.email && body.token) {
      proof = { email: body.email, otp: body.token.trim() };
    } else {
      throw Errors.validation('Verify requires either a token_hash or an email and token');
    }
    const expiry = authSettings(ctx.config).otpExpirySeconds;
    const session = await ctx.db.transaction(async (tx) => {
      const verified = await verifyEmailToken(tx, type, proof, expiry);
      return verified.pending
        ? null
        : issueSession(ctx, tx, verified.user, VERIFY_AMR[type], { ip: clientIp(c) });
    });
    // auth-js reads this shape as "accepted, no session yet".
    return c.json(session ?? { msg: PENDING_MESSAGE, code: 200 });
  });
}
