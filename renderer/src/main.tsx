// Start-up: render the app at once; the supabase-js client (config fetched and validated) loads beside it.
import './index.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app/app.tsx';
import { supabase } from './lib/supabase.ts';

const container = document.getElementById('root');
// Guards against a broken index.html: nothing can render without the mount point.
if (!container) {
  throw new Error('index.html has no #root element');
}
// Start fetching the config and supabase-js in parallel with the first render.
void supabase().catch(() => undefined);
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
