// Parsing of agent_roles rows (zod at the boundary). Imported on demand by get-agent-roles.ts, which runs
// only after supabase-js has loaded, so zod stays out of the landing page's first load.
import * as z from 'zod/mini';

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

const agentRoleRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  role_type: z.string(),
  // bigint/numeric columns may arrive as strings from PostgREST.
  price_monthly: z.union([z.int(), z.string().check(z.regex(/^\d+$/))]),
  features: z.unknown(),
});

/** Parses rows, dropping any that do not have the expected shape. */
export function parseAgentRoles(rows: unknown): AgentRole[] {
  if (!Array.isArray(rows)) {
    return [];
  }
  return rows.flatMap((row) => {
    const parsed = agentRoleRowSchema.safeParse(row);
    if (!parsed.success || Number(parsed.data.price_monthly) < 0) {
      return [];
    }
    const { description, price_monthly, features, ...rest } = parsed.data;
    return [
      {
        ...rest,
        description: description ?? '',
        price_monthly: Number(price_monthly),
        features: parseFeatures(features),
      },
    ];
  });
}
