// The landing page's agent catalogue as React state. The page (prerendered) first shows the loading text;
// the catalogue is fetched once the browser is idle after hydration, so neither PostgREST nor zod sits on
// the path to the first paint or to an interactive page. A fresh result is reused for 5 minutes.
import { useEffect, useState } from 'react';

import { DEFAULT_AGENT_ROLES } from '../../../../../shared/constants.ts';
import type { LandingAgentRoles } from './fetch-agent-roles.ts';

const FRESH_MS = 5 * 60_000;
/** Longest wait for an idle moment before fetching anyway. */
const IDLE_TIMEOUT_MS = 2_000;

let cached: { at: number; value: LandingAgentRoles } | undefined;
let inFlight: Promise<LandingAgentRoles> | undefined;

function fresh(): LandingAgentRoles | undefined {
  return cached && Date.now() - cached.at < FRESH_MS ? cached.value : undefined;
}

function load(): Promise<LandingAgentRoles> {
  inFlight ??= import('./fetch-agent-roles.ts')
    .then((module) => module.fetchLandingAgentRoles())
    // The fetch code itself failed to load (offline, a new deploy): the built-in list, as for a failed call.
    .catch((): LandingAgentRoles => ({ roles: [...DEFAULT_AGENT_ROLES], fallback: true }))
    .then((value) => {
      cached = { at: Date.now(), value };
      return value;
    })
    .finally(() => {
      inFlight = undefined;
    });
  return inFlight;
}

/** Runs `task` when the main thread is idle (or after a timeout); returns the cancel. */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(task, 1);
  return () => clearTimeout(timer);
}

export function useLandingAgentRoles(): { data: LandingAgentRoles | undefined; isPending: boolean } {
  // Hydration must match the prerendered HTML, which has no data: a cached result is used only when the
  // landing page is entered again within the visit, never in the first render of a hydrated page.
  const [data, setData] = useState<LandingAgentRoles | undefined>(fresh);
  useEffect(() => {
    if (data) {
      return undefined;
    }
    let active = true;
    const cancel = whenIdle(() => {
      void load().then((value) => {
        if (active) {
          setData(value);
        }
      });
    });
    return () => {
      active = false;
      cancel();
    };
  }, [data]);
  return { data, isPending: data === undefined };
}
