// Start-up: hydrate the page prerendered into index.html when theme-init.js showed one for this path
// (the landing page, /auth), else render the app from scratch. supabase-js loads only when needed.
import './index.css';
// Before any schema parses (see the module).
import './lib/zod-jitless.ts';

import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

import { App } from './app/app.tsx';
import { createRouter, resolveRoutes } from './app/router.tsx';
import { SHELLS } from './app/shells.ts';
import { isInFrame } from './features/auth/hooks/use-in-frame.ts';
import { mayHaveStoredSession } from './lib/auth/stored-session.ts';
import { supabase } from './lib/supabase.ts';

/** The prerendered shell theme-init.js showed, if this first render will reproduce it exactly. */
function hydratableShell(): HTMLElement | null {
  const name = document.documentElement.dataset.shell;
  const shell = SHELLS.find((s) => s.name === name);
  const element = document.querySelector<HTMLElement>(`body > [data-shell="${name}"]`);
  if (!shell || !element) {
    return null;
  }
  // A visitor-only page renders differently for a stored session or inside a frame: render it afresh.
  return shell.visitorOnly && (mayHaveStoredSession() || isInFrame()) ? null : element;
}

async function start(container: HTMLElement): Promise<void> {
  // A stored session is checked at once by the session provider: load supabase-js beside the page modules.
  if (mayHaveStoredSession()) {
    void supabase().catch(() => undefined);
  }
  const shell = hydratableShell();
  // The other prerendered pages are never shown on this path.
  for (const other of document.querySelectorAll('body > [data-shell]')) {
    if (other !== shell) {
      other.remove();
    }
  }
  // The page's route modules load before the router exists: its first render is the page itself, which
  // a prerendered shell needs to hydrate (and no empty first render otherwise).
  const resolved = await resolveRoutes(window.location.pathname).then(
    () => true,
    // A page module that cannot load: the router loads it again and shows its error screen.
    () => false,
  );
  if (!shell || !resolved) {
    shell?.remove();
    delete document.documentElement.dataset.shell;
    // As a transition the first render yields to the browser every few milliseconds (no long task).
    const root = createRoot(container);
    startTransition(() => root.render(<App router={createRouter()} />));
    return;
  }
  container.remove();
  shell.removeAttribute('data-shell');
  shell.id = 'root';
  // The prerendered page is inert (scripts/prerender.ts) until hydrated: a click before that would do
  // nothing, so none lands (and automation waits for a page that responds).
  const awake = () => shell.removeAttribute('inert');
  // As a transition, hydration yields to the browser every few milliseconds instead of one long task.
  startTransition(() => {
    hydrateRoot(shell, <App router={createRouter()} onCommitted={awake} />);
  });
}

const container = document.getElementById('root');
// Guards against a broken index.html: nothing can render without the mount point.
if (!container) {
  throw new Error('index.html has no #root element');
}
void start(container);
