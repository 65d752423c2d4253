// What would end the scan's login: logout and sign-out links, buttons and API calls. An authenticated scan
// never sends them, whoever asks (a crawled link, a form, the app's own JavaScript, a probe).
const words = String.raw`log[-_ ]?(?:out|off)|sign[-_ ]?(?:out|off)|signout|logout|logoff|abmelden|ausloggen|d[ée]connexion|se[-_ ]d[ée]connecter|cerrar[-_ ]sesi[oó]n|end[-_ ]?session|destroy[-_ ]?session|kill[-_ ]?session`;
const inUrl = new RegExp(String.raw`(?:^|[^a-z])(?:${words})(?:$|[^a-z])`, 'i');
const inText = new RegExp(String.raw`^\s*(?:${words}|log me out|sign me out)\s*$`, 'i');

/** True for a logout link or call: by its URL (path and query), its method, or the text it shows. */
export function isLogout(url: URL, method = 'GET', text = ''): boolean {
  const where = decodeURIComponent(`${url.pathname}${url.search}`.replace(/%(?![0-9a-f]{2})/gi, '%25'));
  // Rails and others end a session with DELETE /session (or /sessions/current, /users/sign_out).
  if (method.toUpperCase() === 'DELETE' && /(?:^|\/)(?:sessions?|auth|login)(?:\/|$)/i.test(url.pathname)) {
    return true;
  }
  return inUrl.test(where) || (text !== '' && inText.test(text));
}

// The word on its own: between separators of any kind (a backup probe's `delete~`, `#delete#` or
// `delete.bak` may be routed to the action itself, as Rails routes `delete.:format`), or a camelCase part.
const destructive =
  /(?:^|[^a-z0-9])(?:delete|remove|destroy|deactivate|terminate|erase|purge|wipe|close[-_]?account|cancel[-_]?(?:account|subscription|order))(?:$|[^a-z0-9])/i;

/**
 * What would destroy the customer's data if an authenticated scan sent it (a "delete my account" link or
 * form, DELETE on anything): the logged-in session never sends it. Probes still test these URLs' parameters
 * before logging in, where they can do no harm.
 */
export function isDestructive(url: URL, method = 'GET'): boolean {
  const where = decodeURIComponent(`${url.pathname}${url.search}`.replace(/%(?![0-9a-f]{2})/gi, '%25'));
  return method.toUpperCase() === 'DELETE' || destructive.test(where.replace(/([a-z0-9])([A-Z])/g, '$1-$2'));
}
