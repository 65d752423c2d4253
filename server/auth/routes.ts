import { Hono, type MiddlewareHandler } from 'hono';
import { limitRequestBody } from '../http/body-limit.ts';
import type { StackContext } from '../context.ts';
import { API_VERSION, authError, errorResponse, handleError } from './errors.ts';
import { apiKeyGate, type AuthEnv } from './guard.ts';
import { nulRefused } from './request.ts';
import { mountFactors } from './mfa/routes.ts';
import { AuthLimits } from './limits.ts';
import { mountAdmin } from './routes-admin.ts';
import { mountGenerateLink } from './routes-admin-links.ts';
import { mountInvite } from './routes-invite.ts';
import { mountNotOffered } from './routes-not-offered.ts';
import { mountEmailRoutes } from './routes-email.ts';
import { mountSignup } from './routes-signup.ts';
import { mountToken } from './routes-token.ts';
import { mountUser } from './routes-user.ts';
import { mountVerify } from './routes-verify.ts';
import { authSettings } from './settings.ts';

/** Paths reachable without an API key, as Supabase's gateway leaves them open. */
const OPEN = new Set(['/verify', '/health', '/.well-known/jwks.json', '/settings', '/authorize']);

/** /auth/v1: the GoTrue endpoints supabase-js uses. */
export function authRoutes(ctx: StackContext): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const limits = new AuthLimits(ctx);
  app.onError(handleError);
  app.use('*', async (c, next) => {
    await next();
    c.header('X-Supabase-Api-Version', API_VERSION);
  });
  const limitBody: MiddlewareHandler<AuthEnv> = (c, next) => {
    const max = authSettings(ctx.config).maxBodyBytes;
    return limitRequestBody<AuthEnv>({
      maxSize: max,
      onError: (cc) =>
        errorResponse(
          cc,
          authError(413, 'request_entity_too_large', `Request body too large (max ${max} bytes)`),
        ),
    })(c, next);
  };
  app.use('*', limitBody);
  // A NUL in the path or a query value (`/verify?token=%00`) is refused before any handler sees it.
  app.use('*', async (c, next) => {
    const url = new URL(c.req.url);
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      throw authError(
        400,
        'validation_failed',
        'Invalid request: the path is not valid percent-encoded UTF-8',
      );
    }
    if (path.includes('\u0000') || [...url.searchParams.values()].some((v) => v.includes('\u0000'))) {
      throw nulRefused();
    }
    await next();
  });

  app.get('/health', (c) =>
    c.json({ version: 'vigil', name: 'GoTrue', description: 'Vigil embedded auth (GoTrue-compatible)' }),
  );
  app.get('/.well-known/jwks.json', (c) => {
    c.header('Cache-Control', 'public, max-age=600');
    return c.json(ctx.keys.jwks());
  });
  app.get('/settings', (c) =>
    c.json({
      external: { email: true, phone: false, anonymous_users: authSettings(ctx.config).anonymousSignIns },
      disable_signup: false,
      mailer_autoconfirm: ctx.config.autoconfirm,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );

  const gate = apiKeyGate(ctx);
  const gateUnlessOpen: MiddlewareHandler<AuthEnv> = (c, next) => {
    const path = c.req.path.replace(/^.*\/auth\/v1/, '');
    // E-mail links are opened by people, with no API key; everything else goes through the gateway check.
    if (OPEN.has(path) && c.req.method === 'GET') {
      return next();
    }
    return gate(c, next);
  };
  app.use('*', gateUnlessOpen);

  mountSignup(app, ctx, limits);
  mountToken(app, ctx, limits);
  mountVerify(app, ctx, limits);
  mountEmailRoutes(app, ctx, limits);
  mountUser(app, ctx, limits);
  mountFactors(app, ctx, limits);
  mountAdmin(app, ctx);
  mountGenerateLink(app, ctx);
  mountInvite(app, ctx);
  mountNotOffered(app, ctx);
  // Unknown paths answer as GoTrue's router does (plain text), instead of falling through to the web app.
  app.all('*', (c) => c.text('404 page not found\n', 404));
  return app;
}
