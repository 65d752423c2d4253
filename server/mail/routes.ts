import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import { listMail } from './outbox.ts';

const Query = z.object({
  to: z.string().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/** /_mail: the local outbox, as a page for people and as JSON for tests and tools. */
export function mailRoutes(ctx: StackContext): Hono {
  const app = new Hono();
  app.get('/api/messages', async (c) => {
    const q = Query.safeParse(c.req.query());
    if (!q.success) {
      return c.json({ message: 'Invalid query', issues: q.error.issues.map((i) => i.message) }, 400);
    }
    return c.json(await listMail(ctx.db, q.data.to, q.data.limit));
  });
  app.get('/', async (c) => {
    const mails = await listMail(ctx.db, c.req.query('to'));
    return c.html(
      html`<!doctype html>
        <html lang="en">
          <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>Vigil mail outbox</title>
            <style>
              body {
                font:
                  15px/1.5 system-ui,
                  sans-serif;
                margin: 0;
                background: #0b1120;
                color: #e2e8f0;
              }
              main {
                max-width: 900px;
                margin: 0 auto;
                padding: 24px;
              }
              article {
                background: #111827;
                border: 1px solid #1f2937;
                border-radius: 10px;
                margin: 16px 0;
                padding: 16px;
              }
              h1 {
                font-size: 22px;
              }
              h2 {
                font-size: 17px;
                margin: 0 0 4px;
              }
              .meta {
                color: #94a3b8;
                font-size: 13px;
              }
              iframe {
                width: 100%;
                min-height: 260px;
                border: 0;
                background: #fff;
                border-radius: 6px;
              }
            </style>
          </head>
          <body>
            <main>
              <h1>Mail outbox</h1>
              <p class="meta">Every e-mail this Vigil stack has sent, newest first (${mails.length}).</p>
              ${mails.map(
                (m) =>
                  html`<article>
                    <h2>${m.subject}</h2>
                    <p class="meta">To ${m.to} · ${m.created_at}</p>
                    <iframe
                      sandbox="allow-popups allow-popups-to-escape-sandbox"
                      srcdoc="${raw(escapeAttr(m.html))}"
                      title="${m.subject}"
                    ></iframe>
                  </article>`,
              )}
            </main>
          </body>
        </html>`,
    );
  });
  return app;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
