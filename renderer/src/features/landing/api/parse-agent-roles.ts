// Parsing of agent_roles rows at the landing page's boundary (plain guards: see shared/boundaries.ts for why
// the landing page carries no zod).
import { isRecord } from '../../../../../shared/boundaries.ts';
import type { AgentRole } from '../../../../../shared/constants.ts';

/** features is a list, or a string of JSON holding one; anything unparsable becomes an empty list. */
export function parseFeatures(value: unknown): string[] {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value) as unknown;
    } catch {
      return [];
    }
  }
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
}

/** price_monthly in cents: an integer, or (bigint/numeric columns from PostgREST) a string of digits. */
function priceInCents(value: unknown): number | null {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? value : null;
  }
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

function parseRow(row: unknown): AgentRole | null {
  if (!isRecord(row)) {
    return null;
  }
  const { id, name, description, role_type, price_monthly, features } = row;
  const price = priceInCents(price_monthly);
  if (
    typeof id !== 'string' ||
    typeof name !== 'string' ||
    typeof role_type !== 'string' ||
    (description !== null && typeof description !== 'string') ||
    price === null
  ) {
    return null;
  }
  return {
    id,
    name,
    description: description ?? '',
    role_type,
    price_monthly: price,
    features: parseFeatures(features),
  };
}

/** Parses rows, dropping any that do not have the expected shape. */
export function parseAgentRoles(rows: unknown): AgentRole[] {
  return Array.isArray(rows) ? rows.map(parseRow).filter((role): role is AgentRole => role !== null) : [];
}
