// The app's own scheme (app://vigil): declared privileged, with the renderer sandboxed, before the app is
// ready; once ready, it serves the renderer's build with the app's content security policy.
import { readFile } from 'node:fs/promises';
import { app, protocol } from 'electron';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, contentSecurityPolicy, resolveAppPath } from '../app-scheme.ts';
import type { MainContext } from './context.ts';

export function initAppScheme(): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
  app.enableSandbox();
}

export function serveAppScheme(ctx: MainContext): void {
  const csp = contentSecurityPolicy(ctx.apiUrl);
  protocol.handle(APP_SCHEME, async (request) => {
    const resolved = resolveAppPath(request.url, ctx.webDir);
    if ('error' in resolved) {
      return new Response(null, { status: resolved.error });
    }
    try {
      return new Response(await readFile(resolved.file), {
        headers: {
          'content-type': resolved.contentType,
          'content-security-policy': csp,
          'x-content-type-options': 'nosniff',
        },
      });
    } catch {
      return new Response(null, { status: 404 });
    }
  });
}
