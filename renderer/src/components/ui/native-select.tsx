// The platform's own <select>, styled as the other fields: for short lists where the native picker serves
// best (keyboard, screen readers, phones). Select (Radix) is the styled alternative.
import type { ComponentProps } from 'react';

import { cn } from '../../lib/utils.ts';

export function NativeSelect({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        'h-10 w-full rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        className,
      )}
      {...props}
    />
  );
}
