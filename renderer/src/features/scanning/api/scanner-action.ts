// security-scanner-integration (docs/product.md §7): initialize, start_scan (continuous false) or stop_scan for
// one scanner of the signed-in user. Answers {success, message}; a start also names the new scan.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';
import type { ScannerAction } from '../lib/action-toasts.ts';
import type { ScannerType } from '../lib/scanners.ts';
import { functionErrorText } from '../../../lib/function-error.ts';
import { scanningKeys } from './keys.ts';

export interface ScannerActionInput {
  action: ScannerAction;
  toolType: ScannerType;
  /** The target's id (start_scan). */
  target?: string;
}

export interface ScannerActionResult {
  success: boolean;
  message: string;
  scanId?: string | null;
}

const FAILED = 'There was a problem executing the requested action. Please try again.';

export async function scannerAction({
  action,
  toolType,
  target,
}: ScannerActionInput): Promise<ScannerActionResult> {
  const body = {
    action,
    toolType,
    ...(action === 'start_scan' ? { continuous: false } : {}),
    ...(target ? { target } : {}),
  };
  const { data, error } = (await (
    await supabase()
  ).functions.invoke('security-scanner-integration', { body })) as {
    data: ScannerActionResult | null;
    error: unknown;
  };
  if (error) {
    throw new Error(await functionErrorText(error, FAILED));
  }
  // Guard: a 2xx without success is still a failure the person must see.
  if (!data?.success) {
    throw new Error(data?.message || FAILED);
  }
  return data;
}

export function useScannerAction(userId: string | undefined, toolType: ScannerType) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<ScannerActionInput, 'toolType'>) => scannerAction({ ...input, toolType }),
    onSuccess: async (_result, input) => {
      if (input.action === 'initialize') {
        await queryClient.invalidateQueries({ queryKey: scanningKeys.config(userId ?? '', toolType) });
      } else {
        await queryClient.invalidateQueries({ queryKey: scanningKeys.scans });
      }
    },
  });
}
