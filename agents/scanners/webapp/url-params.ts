// Which parameters carry a URL or a path: by their name (`next`, `returnUrl`, `redirect_uri`, `successUrl`,
// `file`, `page`, `doc`…, in any case and joined by `_`, `-`, `.` or camelCase) or by their value (an
// absolute or protocol-relative URL, a path from the root, a relative path with a folder or a file
// extension). The open-redirect probe tries every such parameter, and they are probed first for injection
// so that the caps on probed parameters never leave them out.

/** Name words that say a URL to go to or fetch. */
const URL_WORDS = new Set([
  ...['url', 'uri', 'link', 'href', 'redirect', 'redir', 'return', 'returnto', 'next', 'goto', 'go'],
  ...['dest', 'destination', 'continue', 'target', 'to', 'out', 'forward', 'callback', 'back', 'ref'],
  ...['referer', 'referrer', 'location', 'site', 'success', 'jump', 'r', 'u', 'rurl', 'service'],
]);
/** Name words that say a file or a page on the server. */
const PATH_WORDS = new Set([
  ...['path', 'file', 'filename', 'page', 'folder', 'dir', 'doc', 'document', 'template', 'include'],
  ...['inc', 'view', 'load', 'read', 'download', 'image', 'img', 'src', 'style', 'module', 'lang'],
]);

/** The words of a parameter name: `redirect_uri`, `returnUrl`, `success-url`, `user[next]` → their parts. */
export function nameWords(name: string): string[] {
  return name
    .slice(0, 100)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]{0,20}:)?\/\//i;
/** `/account`, `./a`, `../a`, `docs/a`, `about.html`: no spaces, no query-like noise. */
const PATHLIKE =
  /^(?:\.{0,2}\/[^\s]{0,200}|[\w.-]{1,80}(?:\/[\w.-]{1,80}){1,10}\/?|[\w-]{1,80}\.[a-z0-9]{1,5})$/i;

export type Carried = 'url' | 'path' | null;

/** What `name`=`value` carries: a URL (where to go), a path (what to read), or neither. */
export function carries(name: string, value: string | null): Carried {
  const v = (value ?? '').slice(0, 2048);
  if (ABSOLUTE.test(v)) {
    return 'url';
  }
  const words = nameWords(name);
  if (words.some((w) => URL_WORDS.has(w))) {
    return 'url';
  }
  if (v.startsWith('/') || /^\.{1,2}\//.test(v)) {
    return 'path';
  }
  if (words.some((w) => PATH_WORDS.has(w))) {
    return 'path';
  }
  return PATHLIKE.test(v) && !/^\d+(\.\d+)*$/.test(v) ? 'path' : null;
}

/** Parameters that carry a URL or a path first, the others after, each group in its own order. */
export function urlParamsFirst<T>(items: T[], carried: (item: T) => Carried): T[] {
  const first = items.filter((item) => carried(item) !== null);
  return [...first, ...items.filter((item) => carried(item) === null)];
}
