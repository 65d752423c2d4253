import { Hono } from 'hono';
import type { StackContext, StackStatus } from './context.ts';
import { authRoutes } from './auth/routes.ts';
import { checkoutRoutes } from './checkout/routes.ts';
import { corsMiddleware } from './http/cors.ts';
import { localOnly } from './http/local-only.ts';
import { mailRoutes } from './mail/routes.ts';
import { restRoutes } from './rest/routes.ts';
import { realtimeRestRoutes } from './realtime/rest.ts';
import { functionsRoutes } from './functions/routes.ts';
import { storageRoutes } from './storage/routes.ts';
import { webRoutes } from './web/routes.ts';
import { stackMemory } from './stack-memory.ts';

/**
 * The HTTP surface of the embedded stack. Each service is its own router; this file only mounts them.
 * Realtime attaches to the HTTP server's upgrade event (see stack.ts).
 */
export function createApp(ctx: StackContext, status: StackStatus): Hono {
  const app = new Hono();
  const origin = new URL(ctx.config.publicUrl).origin;
  // CORS only on the Supabase API paths; the local pages must not be readable by other origins.
  for (const api of ['/auth/v1/*', '/rest/v1/*', '/functions/v1/*', '/storage/v1/*', '/realtime/v1/*']) {
    app.use(api, corsMiddleware);
  }
  app.use('/_mail/*', localOnly(origin));
  app.use('/_stack/*', localOnly(origin));
  app.route('/_mail', mailRoutes(ctx));
  app.route('/rest/v1', restRoutes(ctx));
  app.route('/realtime/v1', realtimeRestRoutes(ctx));
  app.route('/auth/v1', authRoutes(ctx));
  app.get('/_stack/status', (c) => c.json(status));
  app.get('/_stack/memory', async (c) => c.json(await stackMemory(ctx)));
  app.get('/health', (c) => c.json({ status: 'ok', db: ctx.db.kind }));
  app.route('/functions/v1', functionsRoutes(ctx));
  app.route('/storage/v1', storageRoutes(ctx));
  app.route('/_checkout', checkoutRoutes(ctx));
  // Keep last: /config.json and the web app, whose client-side routes take every other GET path.
  app.route('/', webRoutes(ctx));
  return app;
}
