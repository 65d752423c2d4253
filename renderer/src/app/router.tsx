// The route table of docs/product.md §2. Every page is lazy-loaded so the landing page stays small; every page
// but the landing sits under the query layout, so the landing does not load react-query either.
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router-dom';

import { RouteError } from '../components/errors/route-error.tsx';
import { RootLayout } from './root-layout.tsx';

type PageModule = { Component: React.ComponentType };
const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).Component }),
});

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: '/', ...page(() => import('./routes/landing.tsx')) },
      { path: '/home', ...page(() => import('./routes/landing.tsx')) },
      { ...page(() => import('./query-layout.tsx')), children: appRoutes() },
    ],
  },
];

/** Every route but the landing page: they share the query client of the query layout. */
function appRoutes(): RouteObject[] {
  return [
    { path: '/demo', ...page(() => import('./routes/demo.tsx')) },
    { path: '/support', ...page(() => import('./routes/support.tsx')) },
    { path: '/privacy', ...page(() => import('./routes/privacy.tsx')) },
    { path: '/terms', ...page(() => import('./routes/terms.tsx')) },
    { path: '/:slug', ...page(() => import('./routes/info-page.tsx')) },
    { path: '/auth', ...page(() => import('./routes/auth/auth.tsx')) },
    { path: '/auth/verify', ...page(() => import('./routes/auth/verify.tsx')) },
    { path: '/auth/callback', ...page(() => import('./routes/auth/callback.tsx')) },
    { path: '/auth/forgot-password', ...page(() => import('./routes/auth/forgot-password.tsx')) },
    { path: '/auth/reset-password', ...page(() => import('./routes/auth/reset-password.tsx')) },
    { path: '/auth/mfa', ...page(() => import('./routes/auth/mfa.tsx')) },
    { path: '/auth/webauthn-relay', ...page(() => import('./routes/auth/webauthn-relay.tsx')) },
    {
      // aal2 guard: with a verified factor, a password-only session must pass /auth/mfa first (also before
      // enrolling another factor).
      ...page(() => import('./routes/require-aal2.tsx')),
      children: [
        { path: '/auth/biometric-setup', ...page(() => import('./routes/auth/biometric-setup.tsx')) },
        // Agent selection and checkout are open to visitors (docs/product.md §6): checkout sends them to /auth.
        { path: '/dashboard/select-roles', ...page(() => import('./routes/dashboard/select-roles.tsx')) },
        {
          path: '/dashboard',
          ...page(() => import('./routes/dashboard/layout.tsx')),
          children: [
            { index: true, ...page(() => import('./routes/dashboard/home.tsx')) },
            { path: 'settings', ...page(() => import('./routes/dashboard/settings.tsx')) },
            { path: 'agents', ...page(() => import('./routes/dashboard/agents.tsx')) },
            {
              path: 'security-automation',
              ...page(() => import('./routes/dashboard/security-automation.tsx')),
            },
            { path: 'alerts', ...page(() => import('./routes/dashboard/alerts.tsx')) },
            { path: 'reports', ...page(() => import('./routes/dashboard/reports.tsx')) },
            { path: 'help', ...page(() => import('./routes/dashboard/help.tsx')) },
            {
              path: 'security-settings',
              ...page(() => import('./routes/dashboard/security-settings.tsx')),
            },
            { path: '*', ...page(() => import('./routes/not-found.tsx')) },
          ],
        },
      ],
    },
    { path: '*', ...page(() => import('./routes/not-found.tsx')) },
  ];
}

/**
 * Loads the lazy modules of the routes that match `pathname`, in place. Hydrating prerendered HTML needs
 * this first: with a lazy route still pending, the router would render nothing and hydration would fail.
 */
export async function resolveRoutes(pathname: string, table: RouteObject[] = routes): Promise<void> {
  const matches = matchRoutes(table, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy === 'function') {
        Object.assign(route, await route.lazy(), { lazy: undefined });
      }
    }),
  );
}

export function createRouter() {
  return createBrowserRouter(routes);
}
