// Scanner action toasts (docs/product.md §8): one success and one failure title per action.
import type { ToastSpec } from './scan-status.ts';

export type ScannerAction = 'initialize' | 'start_scan' | 'stop_scan';

const titles: Record<ScannerAction, { ok: string; failed: string }> = {
  initialize: { ok: 'Scanner Initialized', failed: 'Initialization Failed' },
  start_scan: { ok: 'Scan Started', failed: 'Start Scan Failed' },
  stop_scan: { ok: 'Scan Stopped', failed: 'Stop Scan Failed' },
};

export function actionSucceededToast(action: ScannerAction, message: string): ToastSpec {
  return { title: titles[action].ok, description: message, variant: 'default' };
}

export function actionFailedToast(action: ScannerAction, message: string): ToastSpec {
  return { title: titles[action].failed, description: message, variant: 'destructive' };
}

export const TOOL_LOGIN_REQUIRED = 'You must be logged in to use security tools';
const TOOL_FAILED = 'There was a problem executing the requested action. Please try again.';

/** Tool actions through security-tool-orchestration (docs/product.md §8). */
export function toolActionCompletedToast(action: string, toolType: string): ToastSpec {
  return {
    title: 'Tool Action Completed',
    description: `Successfully performed ${action} on ${toolType}`,
    variant: 'default',
  };
}

export function toolActionFailedToast(message: string | undefined): ToastSpec {
  return { title: 'Tool Action Failed', description: message || TOOL_FAILED, variant: 'destructive' };
}
