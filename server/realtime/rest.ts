import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import { isRoleFailure, resolveRequestRole } from '../http/request-role.ts';
import { hubFor } from './hub.ts';

const MAX_BODY_BYTES = 1024 * 1024;

const messagesSchema = z.object({
  messages: z
    .array(
      z.object({
        topic: z.string().min(1).max(255),
        event: z.string().min(1).max(255),
        payload: z.unknown().optional(),
        private: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(100),
});

async function authorise(ctx: StackContext, c: Context) {
  const apikey = c.req.header('apikey') ?? c.req.query('apikey');
  const who = await resolveRequestRole(ctx.keys, apikey, c.req.header('authorization'));
  return isRoleFailure(who) ? null : who;
}

/**
 * Realtime's REST broadcast (wire contract §4.6): what `channel.send` falls back to before a join, and
 * `channel.httpSend`. Private topics are authorised for the service role only (as on the socket).
 */
export function realtimeRestRoutes(ctx: StackContext): Hono {
  const app = new Hono();
  const hub = hubFor(ctx);
  // Oversized bodies are refused while streaming in, never buffered whole.
  app.use(
    '*',
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json({ message: 'Payload too large' }, 413) }),
  );

  app.post('/api/broadcast', async (c) => {
    const who = await authorise(ctx, c);
    if (!who) {
      return c.json({ message: 'Invalid API key or token' }, 401);
    }
    const parsed = messagesSchema.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) {
      return c.json({ message: 'Body must be {messages:[{topic, event, payload}]}' }, 400);
    }
    if (parsed.data.messages.some((m) => m.private) && who.role !== 'service_role') {
      return c.json({ message: 'Unauthorized: private channels need the service role' }, 401);
    }
    for (const m of parsed.data.messages) {
      hub.broadcast(`realtime:${m.topic}`, m.event, m.payload ?? {});
    }
    return c.body(null, 202);
  });

  app.post('/api/broadcast/:topic/events/:event', async (c) => {
    const who = await authorise(ctx, c);
    if (!who) {
      return c.json({ message: 'Invalid API key or token' }, 401);
    }
    if (c.req.query('private') === 'true' && who.role !== 'service_role') {
      return c.json({ message: 'Unauthorized: private channels need the service role' }, 401);
    }
    const { topic, event } = c.req.param();
    const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    const raw = Buffer.from(await c.req.arrayBuffer());
    let payload: unknown = raw;
    if (type === 'application/json') {
      try {
        payload = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
      } catch {
        return c.json({ message: 'Body is not JSON' }, 400);
      }
    }
    hub.broadcast(`realtime:${topic}`, event, payload);
    return c.body(null, 202);
  });

  return app;
}
