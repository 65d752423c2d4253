// security_tool_configurations by tool_type and enabled, one row or none (docs/product.md §7), cached 60 s.
// connection_status 'connected' means the scanner is initialised (docs/product.md §4).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { TIMINGS } from '../../../../../shared/constants.ts';
import { supabase } from '../../../lib/supabase.ts';
import type { ScannerType } from '../lib/scanners.ts';
import { scanningKeys } from './keys.ts';

export interface ScannerConfig {
  tool_type: string;
  enabled: boolean;
  connection_status: string;
}

export async function getScannerConfig(userId: string, type: ScannerType): Promise<ScannerConfig | null> {
  const { data, error } = await (
    await supabase()
  )
    .from('security_tool_configurations')
    .select('tool_type, enabled, connection_status')
    .eq('user_id', userId)
    .eq('tool_type', type)
    .eq('enabled', true)
    .maybeSingle();
  if (error) {
    throw error;
  }
  return data;
}

export const scannerConfigQuery = (userId: string, type: ScannerType) =>
  queryOptions({
    queryKey: scanningKeys.config(userId, type),
    queryFn: () => getScannerConfig(userId, type),
    staleTime: TIMINGS.scannerConfigCacheMs,
  });

export function useScannerConfig(userId: string | undefined, type: ScannerType) {
  return useQuery({ ...scannerConfigQuery(userId ?? '', type), enabled: Boolean(userId) });
}

export const isInitialized = (config: ScannerConfig | null | undefined) =>
  config?.connection_status === 'connected';
