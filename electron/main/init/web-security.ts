// The security rules of every web contents: navigation and new windows locked to the app, permissions
// refused, outside links to the system browser only for known origins (security-rules.ts).
import { app, session, shell } from 'electron';
import { applySecurityRules } from '../security-rules.ts';
import type { MainContext } from './context.ts';

export function initWebSecurity(ctx: MainContext): void {
  applySecurityRules({
    onWebContentsCreated: (l) => app.on('web-contents-created', (_e, contents) => l(contents)),
    setPermissionRequestHandler: (h) => session.defaultSession.setPermissionRequestHandler(h),
    setPermissionCheckHandler: (h) => session.defaultSession.setPermissionCheckHandler(h),
    openExternal: (url) => shell.openExternal(url),
    externalOrigins: ctx.externalOrigins,
    log: ctx.log,
  });
}
