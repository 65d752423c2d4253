// The product behind a version disclosure, named for the finding's evidence ("Server: nginx/1.22.1,
// identified as Nginx 1.22.1"), and, on the server-version finding, what else the response identifies.
import type { Page } from '../crawl.ts';
import { describeTechnology, identify } from './technologies.ts';

export function technologyNote(page: Page, source: string, withOthers = false): string {
  const all = identify(page.response.headers, page.facts?.generator ?? null);
  const own = all.filter((t) => t.source === source).map(describeTechnology);
  const others = withOthers
    ? all.filter((t) => t.source !== source).map((t) => `${describeTechnology(t)} (${t.source})`)
    : [];
  return [
    own.length > 0 ? `, identified as ${own.join(', ')}` : '',
    others.length > 0 ? `; the same response identifies ${others.slice(0, 6).join(', ')}` : '',
  ].join('');
}
