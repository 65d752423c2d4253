// Toast state in the manner of shadcn/ui's use-toast: a module store, one toast at a time, default 5 s,
// dismissed toasts are removed from memory after 1,000,000 ms (docs/product.md §9).
import { type ReactNode, useEffect, useState } from 'react';

import { TIMINGS } from '../../../shared/constants.ts';

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  duration?: number;
  action?: ReactNode;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

interface ToastState {
  toasts: ToastItem[];
}

let count = 0;
let memory: ToastState = { toasts: [] };
const listeners = new Set<(state: ToastState) => void>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setState(next: ToastState): void {
  memory = next;
  for (const listener of listeners) {
    listener(memory);
  }
}

function scheduleRemoval(id: string): void {
  if (removeTimers.has(id)) {
    return;
  }
  const timer = setTimeout(() => {
    removeTimers.delete(id);
    setState({ toasts: memory.toasts.filter((toast) => toast.id !== id) });
  }, TIMINGS.toastRemoveDelayMs);
  removeTimers.set(id, timer);
}

export function dismiss(id?: string): void {
  for (const toast of memory.toasts) {
    if (id === undefined || toast.id === id) {
      scheduleRemoval(toast.id);
    }
  }
  setState({
    toasts: memory.toasts.map((toast) =>
      id === undefined || toast.id === id ? { ...toast, open: false } : toast,
    ),
  });
}

export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(count);
  const item: ToastItem = { ...input, id, open: true };
  setState({ toasts: [item, ...memory.toasts].slice(0, TIMINGS.toastLimit) });
  return { id, dismiss: () => dismiss(id) };
}

export function useToast(): ToastState & { toast: typeof toast; dismiss: typeof dismiss } {
  const [state, setLocal] = useState(memory);
  useEffect(() => {
    listeners.add(setLocal);
    return () => {
      listeners.delete(setLocal);
    };
  }, []);
  return { ...state, toast, dismiss };
}

/** Test hook: the current toasts without React. */
export function currentToasts(): readonly ToastItem[] {
  return memory.toasts;
}
