import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { loadConfig, type StackConfig } from './config.ts';
import type { StackContext, StackStatus } from './context.ts';
import type { Database } from './db/database.ts';
import { openDatabase } from './db/open.ts';
import { openCredentialsKey } from './credentials-key.ts';
import { openKeyRing, type KeyRing } from './keys.ts';
import { createMailer } from './mail/outbox.ts';
import { attachRealtime } from './realtime/attach.ts';
import { saveIntrospection } from './rest/schema-cache-file.ts';
import { exposedSchemas } from './rest/schema-cache.ts';

export interface RunningStack {
  url: string;
  status: StackStatus;
  ctx: StackContext;
  /** The app's request handler, the same one the HTTP server calls (the bench measures the stack without HTTP). */
  handle(request: Request): Promise<Response>;
  close(): Promise<void>;
}

export async function startStack(overrides: Partial<StackConfig> = {}): Promise<RunningStack> {
  const config = loadConfig(process.env, overrides);
  // The server listens before the app exists (to learn a random port for port 0); requests that
  // arrive in that window get 503, which supabase-js treats as retryable.
  let handler: Fetch | null = null;
  const server = await listen(config, (req, env) =>
    handler ? handler(req, env) : new Response('starting', { status: 503, headers: { 'retry-after': '1' } }),
  );
  const port = (server.address() as AddressInfo).port;
  if (config.port === 0) {
    config.port = port;
    config.publicUrl = `http://${config.host}:${port}`;
    config.siteUrl = overrides.siteUrl ?? config.publicUrl;
  }
  // The database and the signing key are independent: open them together (start-up time).
  let db: Database;
  let keys: KeyRing;
  let credentialsKey: string;
  try {
    [db, keys, credentialsKey] = await Promise.all([
      openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
      openKeyRing(config.dataDir, `${config.publicUrl}/auth/v1`),
      openCredentialsKey(config.dataDir, config.credentialsKey),
    ]);
  } catch (e) {
    // A stack that cannot open its data must not leave its port bound.
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw e;
  }
  const ctx: StackContext = {
    config,
    db,
    keys,
    mailer: createMailer(db, config.smtpUrl, config.mailFrom),
    credentialsKey,
  };
  const status: StackStatus = {
    api_url: config.publicUrl,
    anon_key: keys.anonKey,
    service_role_key: keys.serviceRoleKey,
    mail_url: `${config.publicUrl}/_mail`,
    db: config.databaseUrl
      ? 'postgresql'
      : config.dataDir === 'memory'
        ? 'pglite:memory'
        : `pglite:${path.join(config.dataDir, 'pgdata')}`,
  };
  // Realtime serves WebSocket upgrades on the same HTTP server. It starts before the app: PGlite runs one
  // query at a time, and the app's schema introspection (~150 ms) would otherwise run ahead of realtime's
  // start-up queries. The introspection finishes in the background; REST requests wait for it.
  const detachRealtime = await attachRealtime(ctx, server);
  const app = createApp(ctx, status);
  handler = app.fetch;
  const statusFile = config.dataDir === 'memory' ? null : path.join(config.dataDir, 'stack.json');
  if (statusFile) {
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(statusFile, JSON.stringify({ ...status, port: config.port, pid: process.pid }, null, 2), {
      mode: 0o600,
    });
  }
  let closed = false;
  return {
    url: config.publicUrl,
    status,
    ctx,
    handle: async (request) => app.fetch(request),
    async close() {
      if (closed) {
        return;
      }
      closed = true;
      await detachRealtime();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Last before closing: the next start reuses it only if nothing has written since.
      await saveIntrospection(db, await exposedSchemas(db)).catch((e: unknown) =>
        console.error('rest: cannot save the schema cache', e),
      );
      await db.close();
      if (statusFile) {
        await rm(statusFile, { force: true });
      }
    },
  };
}

type Fetch = (req: Request, env: unknown) => Response | Promise<Response>;

/** The stack's address is taken (another Vigil, or another program) or not ours to bind. */
export class AddressUnavailableError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly reason: 'in use' | 'not permitted' | 'not available',
  ) {
    super(`cannot listen on ${host}:${port}: the address is ${reason}`);
    this.name = 'AddressUnavailableError';
  }
}

function listen(config: StackConfig, fetch: Fetch): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: config.port, hostname: config.host }, () =>
      resolve(server),
    ) as Server;
    // Idle keep-alive connections stay open 30 s, not Node's 5 s. A client that reuses one just as the
    // server closes it gets ECONNRESET; undici keeps an idle socket until 1 s before the timeout the server
    // advertises, a margin a loaded host's event loop can overrun (a test's request failed so at load 12).
    server.keepAliveTimeout = 30_000;
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EADDRINUSE'
          ? 'in use'
          : error.code === 'EACCES'
            ? 'not permitted'
            : error.code === 'EADDRNOTAVAIL'
              ? 'not available'
              : null;
      reject(reason ? new AddressUnavailableError(config.host, config.port, reason) : error);
    });
  });
}
