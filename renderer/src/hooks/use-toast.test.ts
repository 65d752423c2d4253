import { afterEach, describe, expect, it, vi } from 'vitest';

import { currentToasts, dismiss, toast } from './use-toast.ts';

describe('toast store', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  it('shows one toast at a time, newest first', () => {
    toast({ title: 'first' });
    toast({ title: 'second', variant: 'destructive' });
    expect(currentToasts()).toHaveLength(1);
    expect(currentToasts()[0]).toMatchObject({ title: 'second', variant: 'destructive', open: true });
  });
  it('closes on dismiss and removes after 1,000,000 ms', () => {
    vi.useFakeTimers();
    const shown = toast({ title: 'bye' });
    shown.dismiss();
    expect(currentToasts()[0]).toMatchObject({ id: shown.id, open: false });
    vi.advanceTimersByTime(999_999);
    expect(currentToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(currentToasts()).toHaveLength(0);
    dismiss();
  });
});
