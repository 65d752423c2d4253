import type { ReactNode } from 'react';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';

interface Props<T> {
  id: string;
  title: string;
  description: string;
  query: { isPending: boolean; isError: boolean; error: Error | null; data: T[] | undefined };
  empty: string;
  children: (item: T) => ReactNode;
}

/** One section of the Alerts page: skeletons while loading, the error, the empty text or the list. */
export function AlertSection<T>({ id, title, description, query, empty, children }: Props<T>) {
  return (
    <Card role="region" aria-labelledby={id}>
      <CardHeader>
        <CardTitle id={id}>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div className="space-y-2">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-14 w-full" />
            ))}
          </div>
        ) : query.isError ? (
          <p className="text-sm text-destructive">
            Could not load {title.toLowerCase()}: {query.error?.message}
          </p>
        ) : !query.data?.length ? (
          <p className="text-sm text-muted-foreground">{empty}</p>
        ) : (
          <ul className="divide-y">{query.data.map(children)}</ul>
        )}
      </CardContent>
    </Card>
  );
}

/** A list row that opens the alert's findings; a real button, so it works by keyboard. */
export function AlertRow({
  onOpen,
  label,
  children,
}: {
  onOpen: () => void;
  label: string;
  children: ReactNode;
}) {
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        aria-label={label}
        className="flex w-full flex-col gap-1 rounded-md px-2 py-3 text-left hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        {children}
      </button>
    </li>
  );
}
