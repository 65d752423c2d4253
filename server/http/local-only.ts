import type { MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

const LOOPBACK_ADDRESS = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const LOOPBACK_HOST = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/i;

/**
 * Guards the stack's local-only pages (/_mail, /_stack): they hold confirmation links and the
 * service-role key. Only a client on this machine may read them, never another site's script (a
 * foreign Origin), and never through a DNS-rebound host name.
 */
export function localOnly(publicOrigin: string): MiddlewareHandler {
  return async (c, next) => {
    const remote = getConnInfo(c).remote.address ?? '';
    const host = c.req.header('host') ?? '';
    const origin = c.req.header('origin');
    if (!LOOPBACK_ADDRESS.test(remote) || !LOOPBACK_HOST.test(host) || (origin && origin !== publicOrigin)) {
      return c.json({ message: 'This page is only available on the machine running the stack.' }, 403);
    }
    await next();
    c.header('X-Frame-Options', 'DENY');
    c.header('Cache-Control', 'no-store');
  };
}
