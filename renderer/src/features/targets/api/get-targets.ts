// The user's scan targets with their ownership proof state (scan_targets, newest first).
import { queryOptions, useQuery } from '@tanstack/react-query';

import type { Database } from '../../../../../shared/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import { targetKeys } from './keys.ts';

type Row = Database['public']['Tables']['scan_targets']['Row'];
export type ScanTarget = Pick<
  Row,
  | 'id'
  | 'kind'
  | 'value'
  | 'openapi_url'
  | 'verification_token'
  | 'verified_at'
  | 'verification_method'
  | 'verification_error'
  | 'created_at'
  | 'login_kind'
  | 'login_url'
  | 'login_updated_at'
  | 'allow_intrusive'
  | 'intrusive_allowed_at'
>;

export async function getTargets(userId: string): Promise<ScanTarget[]> {
  const { data, error } = await (
    await supabase()
  )
    .from('scan_targets')
    .select(
      'id, kind, value, openapi_url, verification_token, verified_at, verification_method, verification_error, created_at, login_kind, login_url, login_updated_at, allow_intrusive, intrusive_allowed_at',
    )
    .eq('user_id', userId)
    .order('created_at', { ascending: false });
  if (error) {
    throw error;
  }
  return data;
}

export const targetsQuery = (userId: string) =>
  queryOptions({ queryKey: targetKeys.list(userId), queryFn: () => getTargets(userId) });

export function useTargets(userId: string | undefined) {
  return useQuery({ ...targetsQuery(userId ?? ''), enabled: Boolean(userId) });
}
