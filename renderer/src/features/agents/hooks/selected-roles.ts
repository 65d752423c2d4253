// The agent selection carried from the agents page (navigation state) or kept for a visitor in session
// storage under selectedAgentRoles (SPEC point 4), validated, deduplicated.
import { selectedRolesSchema } from '../../../../../shared/boundaries.ts';
import { STORAGE_KEYS } from '../../../../../shared/constants.ts';

function parse(value: unknown): string[] | null {
  const parsed = selectedRolesSchema.safeParse(value);
  return parsed.success ? [...new Set(parsed.data)] : null;
}

export function readSelectedRoles(state: unknown): string[] {
  const fromState = state && typeof state === 'object' ? parse((state as { selectedRoles?: unknown }).selectedRoles) : null;
  if (fromState && fromState.length > 0) {
    return fromState;
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

export function clearSelectedRoles(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEYS.selectedAgentRoles);
  } catch {
    // Nothing stored, nothing to clear.
  }
}
