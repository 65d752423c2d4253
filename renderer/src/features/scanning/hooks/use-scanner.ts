// One scanner card's behaviour (docs/product.md §4, §5, §8): initialise automatically once signed in (and covered
// by one of the user's agents), start and stop with their toasts, the completion toast on
// in_progress → completed, and the fetch-error toast.
import { useEffect, useRef } from 'react';

import { toast } from '../../../hooks/use-toast.ts';
import { useScanAccess } from '../api/get-agent-coverage.ts';
import { isInitialized, useScannerConfig } from '../api/get-scanner-config.ts';
import { useLatestScan } from '../api/get-latest-scan.ts';
import { useScannerAction } from '../api/scanner-action.ts';
import { actionFailedToast, actionSucceededToast, type ScannerAction } from '../lib/action-toasts.ts';
import { completionToast, isActive, type ScanStatus } from '../lib/scan-status.ts';
import type { ScannerInfo } from '../lib/scanners.ts';
import { useScanChanges } from './use-scan-changes.ts';

export const NOT_INITIALIZED = 'Scanner is not initialized. Please initialize it first.';

export function useScanner(userId: string | undefined, scanner: ScannerInfo) {
  const config = useScannerConfig(userId, scanner.type);
  const latest = useLatestScan(userId, scanner.type);
  const action = useScannerAction(userId, scanner.type);
  const access = useScanAccess(userId, scanner.type);
  // Scans are paid: without an agent covering this scanner nothing is set up or started.
  const locked = access?.covered === false;
  useScanChanges(userId, scanner.type);
  const initialized = isInitialized(config.data);
  // The last status this card saw of its latest scan, for the in_progress → completed toast.
  const seen = useRef<{ id: string; status: ScanStatus } | null>(null);

  const run = (name: ScannerAction, target?: string) =>
    action.mutate(
      { action: name, ...(target ? { target } : {}) },
      {
        onSuccess: (result) => {
          if (name === 'start_scan' && result.scanId) {
            // The page started this scan, so its completion toasts even if it finishes before the next fetch.
            seen.current = { id: result.scanId, status: 'queued' };
          }
          toast(actionSucceededToast(name, result.message));
        },
        onError: (error) => toast(actionFailedToast(name, error.message)),
      },
    );

  // Signed-in users trigger initialisation automatically, once per mount, when the scanner is not set up.
  const autoInit = useRef(false);
  useEffect(() => {
    if (userId && access?.covered && config.isSuccess && !initialized && !autoInit.current) {
      autoInit.current = true;
      run('initialize');
    }
    // run is recreated each render and left out on purpose: the ref makes this fire once.
  }, [userId, access?.covered, config.isSuccess, initialized]);

  useEffect(() => {
    const scan = latest.data;
    if (!scan) {
      return;
    }
    const previous = seen.current?.id === scan.id ? seen.current.status : null;
    const spec = completionToast(previous, scan, scanner.name);
    if (spec) {
      toast(spec);
    }
    seen.current = { id: scan.id, status: scan.status };
  }, [latest.data, scanner.name]);

  useEffect(() => {
    if (latest.isError) {
      toast({
        title: 'Error fetching scan results',
        description: latest.error.message,
        variant: 'destructive',
      });
    }
  }, [latest.isError, latest.error]);

  return {
    config,
    latest,
    initialized,
    access,
    locked,
    pending: action.isPending ? action.variables.action : null,
    active: isActive(latest.data?.status),
    initialize: () => run('initialize'),
    start: (targetId: string | undefined) => {
      // Guard: docs/product.md §5, checked before the call (the function checks again).
      if (!initialized) {
        toast(actionFailedToast('start_scan', NOT_INITIALIZED));
        return;
      }
      run('start_scan', targetId);
    },
    stop: () => run('stop_scan'),
  };
}
