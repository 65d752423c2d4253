// Names of the URL parameters a site's scripts read, found in their source: the DOM XSS probe
// (dom-xss.ts) tries these on every rendered route, beside the parameters seen in the routes' URLs.
const methodNames = new Set([
  'subscribe',
  'pipe',
  'get',
  'has',
  'keys',
  'values',
  'entries',
  'forEach',
  'length',
]);

/**
 * Names of URL parameters an app's script reads: URLSearchParams and Angular's queryParamMap .get("x"),
 * Angular's queryParams.x, AngularJS's $location.search().x, Vue's $route.query.x. Tried on every route.
 */
export function urlParamNames(script: string): string[] {
  const names = new Set<string>();
  const patterns = [
    /(?:searchParams|queryParamMap|URLSearchParams\([^)]*\))\.get\(\s*["'`]([\w-]{1,30})["'`]/g,
    /queryParams\.([A-Za-z_$][\w$]{0,29})\b/g,
    /queryParams\[\s*["'`]([\w-]{1,30})["'`]\s*\]/g,
    /\.search\(\)\.([A-Za-z_$][\w$]{0,29})\b/g,
    /\.query\.([A-Za-z_$][\w$]{0,29})\b/g,
  ];
  for (const pattern of patterns) {
    for (const match of script.matchAll(pattern)) {
      if (!methodNames.has(match[1]!)) {
        names.add(match[1]!);
      }
    }
  }
  return [...names];
}
