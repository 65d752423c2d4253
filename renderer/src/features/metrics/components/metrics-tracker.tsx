// Records page views and auth events of the signed-in user into the metrics queue, and flushes the queue
// when the page is hidden or unloaded (pagehide / visibilitychange, with fetch keepalive).
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

import { needsSecondStep } from '../../../lib/auth/assurance.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { setMetricsSession } from '../api/send-metrics.ts';
import { metricsQueue, trackMetric } from '../api/track-metric.ts';

const TRACKED_AUTH_EVENTS = new Set([
  'SIGNED_IN',
  'USER_UPDATED',
  'PASSWORD_RECOVERY',
  'MFA_CHALLENGE_VERIFIED',
]);

export function MetricsTracker(): null {
  const { session, lastEvent } = useAuth();
  const { pathname } = useLocation();
  const userId = session?.user.id;
  const accessToken = session?.access_token;

  useEffect(() => {
    if (!userId || !accessToken) {
      setMetricsSession(null);
      metricsQueue.clear();
      return;
    }
    // Until the server says whether this token may write, metrics wait; a password-only session of a user
    // with a second factor may not (row-level security would refuse it), so they wait for the second step.
    let live = true;
    setMetricsSession({ userId, accessToken, held: true });
    void needsSecondStep(accessToken).then(
      (needed) => live && setMetricsSession({ userId, accessToken, held: needed }),
      () => live && setMetricsSession({ userId, accessToken, held: false }),
    );
    return () => {
      live = false;
    };
  }, [userId, accessToken]);

  useEffect(() => {
    if (userId && lastEvent && TRACKED_AUTH_EVENTS.has(lastEvent)) {
      trackMetric('auth_event', 1, { event: lastEvent });
    }
  }, [userId, lastEvent]);

  useEffect(() => {
    if (userId) {
      trackMetric('page_view', 1, { path: pathname });
    }
  }, [userId, pathname]);

  useEffect(() => {
    const leave = () => void metricsQueue.flush({ unloading: true });
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        leave();
      }
    };
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);
  return null;
}
