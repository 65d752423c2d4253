// The router's error screen: unknown paths and 404 responses get Page Not Found; a thrown render or
// loader error gets the crash screen, so route crashes are reported like any other.
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

import { CrashScreen } from './crash-screen.tsx';
import { NotFound } from './not-found.tsx';

export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) || !(error instanceof Error)) {
    return <NotFound />;
  }
  return <CrashScreen error={error} component="route" />;
}
