// The agent selection carried from the agents page (navigation state) or kept for a visitor in session
// storage under selectedAgentRoles (docs/product.md §4), validated, deduplicated.
import { checkSelectedRoles } from '../../../../../shared/boundaries.ts';
import { STORAGE_KEYS } from '../../../../../shared/constants.ts';

function parse(value: unknown): string[] | null {
  const roles = checkSelectedRoles(value);
  return roles ? [...new Set(roles)] : null;
}

/** The roles in the navigation state, else (unless storage is false) the visitor's stored selection. */
export function readSelectedRoles(state: unknown, { storage = true } = {}): string[] {
  const fromState =
    state && typeof state === 'object' ? parse((state as { selectedRoles?: unknown }).selectedRoles) : null;
  if (fromState && fromState.length > 0) {
    return fromState;
  }
  if (!storage) {
    return fromState ?? [];
  }
  try {
    const stored = sessionStorage.getItem(STORAGE_KEYS.selectedAgentRoles);
    return (stored ? parse(JSON.parse(stored)) : null) ?? [];
  } catch {
    // Storage unavailable or a corrupted entry: start with no selection.
    return [];
  }
}

export function storeSelectedRoles(roleIds: readonly string[]): void {
  try {
    sessionStorage.setItem(STORAGE_KEYS.selectedAgentRoles, JSON.stringify(roleIds));
  } catch {
    // Private mode without storage: the navigation state still carries the selection.
  }
}

/** True while a visitor's selection waits in session storage for them to sign in. */
export function hasPendingSelection(): boolean {
  return readSelectedRoles(null).length > 0;
}

export function clearSelectedRoles(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEYS.selectedAgentRoles);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** The selection with `roleId` added, or taken out when it was in. */
export function toggledRole(selected: ReadonlySet<string>, roleId: string): ReadonlySet<string> {
  const next = new Set(selected);
  if (!next.delete(roleId)) {
    next.add(roleId);
  }
  return next;
}
