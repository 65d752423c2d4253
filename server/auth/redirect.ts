import type { StackConfig } from '../config.ts';

/**
 * GoTrue's URI allow-list glob: `**` matches anything, `*` anything within one host label or path
 * segment (separators `.` and `/`), `?` one such character. Exported for the renderer's own checks.
 */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const ch = glob[i] ?? '';
    if (ch === '*' && glob[i + 1] === '*') {
      out += '.*';
      i += 1;
    } else if (ch === '*') {
      out += '[^./]*';
    } else if (ch === '?') {
      out += '[^./]';
    } else {
      out += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${out}$`);
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Whether `redirectTo` may receive tokens or codes: SITE_URL's host, or a match in the allow list. */
export function isRedirectAllowed(
  config: Pick<StackConfig, 'siteUrl' | 'redirectUrls'>,
  redirectTo: string,
): boolean {
  const target = parse(redirectTo);
  // Only absolute URLs with a real scheme; `javascript:` and friends never carry a session.
  if (!target || !/^(https?|vigil):$/.test(target.protocol)) {
    return false;
  }
  const site = parse(config.siteUrl);
  if (site && target.protocol === site.protocol && target.hostname === site.hostname) {
    return true;
  }
  return config.redirectUrls.some((pattern) => globToRegExp(pattern).test(redirectTo));
}

/** The redirect to use: the requested one when allowed, else SITE_URL (GoTrue's getRedirectURLOrReferrer). */
export function resolveRedirect(
  config: Pick<StackConfig, 'siteUrl' | 'redirectUrls'>,
  requested: string | undefined | null,
): string {
  return requested && isRedirectAllowed(config, requested) ? requested : config.siteUrl;
}
