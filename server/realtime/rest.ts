import { Hono, type Context } from 'hono';
import { limitRequestBody } from '../http/body-limit.ts';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import { isRoleFailure, resolveRequestRole } from '../http/request-role.ts';
import { mayWrite } from './channel-policies.ts';
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
 * Realtime's REST broadcast (docs/reference/realtime.md §6): what `channel.send` falls back to before a join, and
 * `channel.httpSend`. Private topics are authorised by the caller's policies on realtime.messages.
 */
export function realtimeRestRoutes(ctx: StackContext): Hono {
  const app = new Hono();
  const hub = hubFor(ctx);
  // Oversized bodies are refused while streaming in, never buffered whole.
  app.use(
    '*',
    limitRequestBody({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json({ message: 'Payload too large' }, 413),
    }),
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
    // Private topics need the caller's INSERT policy on realtime.messages, checked once per topic;
    // messages it refuses are dropped and the batch still answers 202, as Realtime's BatchBroadcast does.
    const allowed = new Map<string, boolean>();
    for (const m of parsed.data.messages) {
      if (m.private && !allowed.has(m.topic)) {
        allowed.set(m.topic, await mayWrite(ctx.db, who, m.topic, 'broadcast'));
      }
      if (!m.private || allowed.get(m.topic)) {
        hub.broadcast(`realtime:${m.topic}`, m.event, m.payload ?? {}, undefined, m.private === true);
      }
    }
    return c.body(null, 202);
  });

  app.post('/api/broadcast/:topic/events/:event', async (c) => {
    const who = await authorise(ctx, c);
    if (!who) {
      return c.json({ message: 'Invalid API key or token' }, 401);
    }
    const { topic, event } = c.req.param();
    const isPrivate = c.req.query('private') === 'true';
    if (isPrivate && !(await mayWrite(ctx.db, who, topic, 'broadcast'))) {
      return c.json(
        { message: 'Unauthorized: You do not have permissions to write to this Channel topic' },
        401,
      );
    }
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
    hub.broadcast(`realtime:${topic}`, event, payload, undefined, isPrivate);
    return c.body(null, 202);
  });

  return app;
}
