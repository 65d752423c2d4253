import { Hono } from 'hono';
import type { StackContext } from './context.ts';
import { corsMiddleware } from './http/cors.ts';
import { localOnly } from './http/local-only.ts';
import { mailRoutes } from './mail/routes.ts';
import type { StackStatus } from './stack.ts';

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
  app.get('/_stack/status', (c) => c.json(status));
  app.get('/health', (c) => c.json({ status: 'ok', db: ctx.db.kind }));
  return app;
}
