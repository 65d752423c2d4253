import type { ComponentProps } from 'react';

import { cn } from '../../lib/utils.ts';

/** A pulsing placeholder of the content's shape while it loads; hidden from screen readers. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />;
}
