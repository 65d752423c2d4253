import path from 'node:path';
import { contentSecurityPolicy } from '../../shared/csp.ts';

/** The desktop renderer uses the same content security policy as the web build. */
export { contentSecurityPolicy };

/** The renderer is served from app://vigil/ so client-side routing and a strict origin both work. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'vigil';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Registered before `ready`: a standard, secure scheme that may use fetch, like https. */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
} as const;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
};

export type AppPath = { file: string; contentType: string } | { error: 400 | 404 };

/**
 * Maps an app:// request to a file of the renderer build. Paths without a file extension are routes of the
 * single-page app and get index.html; anything that would leave the build folder is refused.
 */
export function resolveAppPath(requestUrl: string, distDir: string): AppPath {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { error: 400 };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) {
    return { error: 404 };
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return { error: 400 };
  }
  if (pathname.includes('\0') || pathname.includes('\\')) {
    return { error: 400 };
  }
  const ext = path.posix.extname(pathname);
  const relative = ext ? pathname : '/index.html';
  const root = path.resolve(distDir);
  const file = path.resolve(root, `.${path.posix.normalize(relative)}`);
  // The resolved file must stay inside the build folder (no ../ or encoded traversal).
  if (file !== root && !file.startsWith(root + path.sep)) {
    return { error: 400 };
  }
  return { file, contentType: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' };
}
