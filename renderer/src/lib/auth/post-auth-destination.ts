// Where a visitor goes once signed in (docs/product.md §2): back to agent selection with the chosen roles when
// they came from there, else back to the protected page that sent them to /auth, else /dashboard.
import { checkSelectedRoles } from '../../../../shared/boundaries.ts';

export interface Destination {
  pathname: string;
  search?: string;
  hash?: string;
  state?: { selectedRoles: string[] };
}

const INTERNAL_PATH = /^\/(?!\/)[^\\]*$/;

function readRoles(value: unknown): string[] | null {
  const roles = checkSelectedRoles(value);
  return roles && roles.length > 0 ? roles : null;
}

export function postAuthDestination(state: unknown, storedRoles: string | null): Destination {
  const record = state && typeof state === 'object' ? (state as Record<string, unknown>) : {};
  if (record.from === 'agent-selection') {
    let stored: unknown = null;
    try {
      stored = storedRoles ? JSON.parse(storedRoles) : null;
    } catch {
      // A corrupted session-storage entry is ignored; the roles in the navigation state still count.
    }
    const roles = readRoles(record.selectedRoles) ?? readRoles(stored) ?? [];
    return { pathname: '/dashboard/select-roles', state: { selectedRoles: roles } };
  }
  const from = record.from;
  if (from && typeof from === 'object' && 'pathname' in from && typeof from.pathname === 'string') {
    // Only same-app paths: a crafted state must not turn sign-in into an open redirect or a loop to /auth.
    if (INTERNAL_PATH.test(from.pathname) && !from.pathname.startsWith('/auth')) {
      const search =
        'search' in from && typeof from.search === 'string' && from.search.startsWith('?') ? from.search : '';
      const hash =
        'hash' in from && typeof from.hash === 'string' && from.hash.startsWith('#') ? from.hash : '';
      return { pathname: from.pathname, search, hash };
    }
  }
  return { pathname: '/dashboard' };
}
