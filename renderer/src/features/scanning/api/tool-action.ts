// security-tool-orchestration (docs/product.md §7): {userId, toolType, action, target, options}. After a tool
// action succeeds the cached security metrics, security events and agent subscriptions are refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '../../../hooks/use-toast.ts';
import { supabase } from '../../../lib/supabase.ts';
import {
  TOOL_LOGIN_REQUIRED,
  toolActionCompletedToast,
  toolActionFailedToast,
} from '../lib/action-toasts.ts';
import { functionErrorText } from '../../../lib/function-error.ts';
import { scanningKeys } from './keys.ts';

export interface ToolActionInput {
  userId: string | undefined;
  toolType: string;
  action: 'status' | 'initialize' | 'scan' | 'stop';
  target?: string;
  options?: Record<string, unknown>;
}

export async function toolAction({
  userId,
  toolType,
  action,
  target,
  options,
}: ToolActionInput): Promise<{ message: string }> {
  // Guard: docs/product.md §5, checked before the call (the function refuses anonymous callers too).
  if (!userId) {
    throw new Error(TOOL_LOGIN_REQUIRED);
  }
  const { data, error } = (await (
    await supabase()
  ).functions.invoke('security-tool-orchestration', {
    body: { userId, toolType, action, ...(target ? { target } : {}), options: options ?? {} },
  })) as { data: { success?: boolean; message?: string } | null; error: unknown };
  if (error) {
    throw new Error(await functionErrorText(error, ''));
  }
  if (!data?.success) {
    throw new Error(data?.message ?? '');
  }
  return { message: data.message ?? '' };
}

// Caches of other features, refreshed by their key prefixes (features do not import each other).
const refreshedPrefixes = new Set(['security-metrics', 'alerts', 'subscription']);

export function useToolAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toolAction,
    onSuccess: async (_result, input) => {
      toast(toolActionCompletedToast(input.action, input.toolType));
      await queryClient.invalidateQueries({
        predicate: (q) =>
          refreshedPrefixes.has(String(q.queryKey[0])) || q.queryKey[0] === scanningKeys.scans[0],
      });
    },
    onError: (error) => toast(toolActionFailedToast(error.message)),
  });
}
