// The findings behind an alert: by id (events, recommendations), by rule (an insight about one
// misconfiguration) or by location (an insight about new services).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import { alertKeys } from './keys.ts';

export type FindingsRef = { ids: string[] } | { ruleId: string } | { locations: string[] };

const COLUMNS =
  'id, title, severity, rule_id, cwe, owasp, cvss_score, location, evidence, remediation, status, accepted_until, first_seen, last_seen, fixed_at, regression, scanner';

export async function getFindings(userId: string, ref: FindingsRef) {
  let query = (await supabase()).from('findings').select(COLUMNS).eq('user_id', userId);
  if ('ids' in ref) {
    query = query.in('id', ref.ids);
  } else if ('ruleId' in ref) {
    query = query.eq('rule_id', ref.ruleId);
  } else {
    query = query.in('location', ref.locations.slice(0, 50));
  }
  const { data, error } = await query.order('last_seen', { ascending: false }).limit(50);
  if (error) {
    throw error;
  }
  return data;
}
export type Finding = Awaited<ReturnType<typeof getFindings>>[number];

export const findingsQuery = (userId: string, ref: FindingsRef) =>
  queryOptions({ queryKey: alertKeys.findings(userId, ref), queryFn: () => getFindings(userId, ref) });

export function useFindings(userId: string, ref: FindingsRef | null) {
  return useQuery({ ...findingsQuery(userId, ref ?? { ids: [] }), enabled: ref !== null });
}
