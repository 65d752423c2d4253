// rpc('agent_coverage'): for each scan type, whether the signed-in customer has an active or trialing agent
// covering it, and which agents would (migration 20261124100000 defines the mapping once). Scans of an
// uncovered type are refused by the server (402); the cards say so first and link to the agents page.
// The key starts with 'subscription', so the subscription-changes channel and tool actions refresh it.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import type { ScannerType } from '../lib/scanners.ts';

export interface ScanAccess {
  covered: boolean;
  /** The agents that cover this scan type, in catalogue order. */
  agents: string[];
}

export type AgentCoverage = Partial<Record<string, ScanAccess>>;

export const coverageKey = (userId: string) => ['subscription', 'coverage', userId] as const;

export async function getAgentCoverage(userId: string): Promise<AgentCoverage> {
  const { data, error } = await (await supabase()).rpc('agent_coverage', { p_user: userId });
  if (error) {
    throw error;
  }
  return Object.fromEntries(data.map((row) => [row.scan_type, { covered: row.covered, agents: row.agents }]));
}

export const agentCoverageQuery = (userId: string) =>
  queryOptions({ queryKey: coverageKey(userId), queryFn: () => getAgentCoverage(userId) });

/** What the user's agents allow for one scanner; undefined while loading or signed out. */
export function useScanAccess(userId: string | undefined, type: ScannerType): ScanAccess | undefined {
  const coverage = useQuery({ ...agentCoverageQuery(userId ?? ''), enabled: Boolean(userId) });
  return coverage.data?.[type];
}
