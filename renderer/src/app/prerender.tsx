// Build-time entry (Node, via scripts/prerender.ts): renders a shell's page to static HTML exactly as the
// browser's first render will produce it, so main.tsx can hydrate it. The tree is App around the same
// RouterProvider; only the router is an in-memory one on the shell's path.
import { prerender } from 'react-dom/static';
import { createMemoryRouter } from 'react-router-dom';

import { App } from './app.tsx';
import { resolveRoutes, routes } from './router.tsx';

export { SHELLS, SHELLS_META } from './shells.ts';

export async function renderShell(path: string): Promise<string> {
  await resolveRoutes(path);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const { prelude } = await prerender(<App router={router} />);
  return new Response(prelude).text();
}
