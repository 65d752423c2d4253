// Same-origin paths named in JavaScript (and JSON) text: string and template literals that read as a URL
// path of the target, such as "/api/v1/users" or `/api/stats?year=${y}` (the literal part up to the
// first ${ }). Static assets and paths that could end a session or change data are left out.
// The pattern is a quote, a path or URL, then the same quote or a template's ${: quotes need not be paired
// across the file, so a stray quote (in a regular expression, say) cannot hide the paths after it.
const literal = /(["'`])((?:https?:)?\/[^"'`\s<>\\]{1,300}?)(?:\1|\$\{)/g;
const pathLike = /^(?:\/[\w~.%@!$&*+,;=:-]*)+\/?(?:\?[\w.~%&=+,:-]*)?$/;
const staticFile =
  /\.(?:png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|eot|otf|mp4|webm|mp3|pdf|zip|gz|css|js|mjs|map|json5|txt|md|html?)$/i;
/** Paths a GET should never touch, even though GET ought to be safe. */
export const unsafePath = /log-?out|sign-?out|logoff|delete|remove|destroy|unsubscribe|reset|revoke/i;

/** Absolute URLs on `origin` named in `text`, in order of appearance, at most `limit`. */
export function pathsInScript(text: string, origin: URL, limit = 40): URL[] {
  const found = new Map<string, URL>();
  // JSON writes "/" as "\/" (PHP's json_encode, for one).
  for (const match of text.replace(/\\\//g, '/').matchAll(literal)) {
    const raw = match[2] ?? '';
    const candidate = raw.startsWith(origin.origin) ? raw.slice(origin.origin.length) || '/' : raw;
    // A path of at least one named segment; not "//host" (another origin) and not a regular expression.
    if (!pathLike.test(candidate) || candidate.startsWith('//') || !/^\/[\w~-]/.test(candidate)) {
      continue;
    }
    let url: URL;
    try {
      url = new URL(candidate, origin);
    } catch {
      continue;
    }
    if (url.origin !== origin.origin || staticFile.test(url.pathname) || unsafePath.test(url.pathname)) {
      continue;
    }
    url.hash = '';
    found.set(url.href, url);
    if (found.size >= limit) {
      break;
    }
  }
  return [...found.values()];
}
