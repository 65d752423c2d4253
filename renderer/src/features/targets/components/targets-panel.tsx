import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useTargets } from '../api/get-targets.ts';
import { AddTargetForm } from './add-target-form.tsx';
import { TargetItem } from './target-item.tsx';

/** The user's scan targets: add one, prove it is theirs, see which are verified. */
export function TargetsPanel({ userId }: { userId: string }) {
  const targets = useTargets(userId);
  return (
    <Card role="region" aria-labelledby="targets-title">
      <CardHeader>
        <CardTitle id="targets-title">Scan Targets</CardTitle>
        <CardDescription>Only targets proven to be yours are scanned.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <AddTargetForm userId={userId} />
        {targets.isPending ? (
          <div className="space-y-2">
            <Skeleton className="h-24 w-full" />
          </div>
        ) : targets.isError ? (
          <p className="text-sm text-destructive">
            Your targets could not be loaded: {targets.error.message}
          </p>
        ) : targets.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No targets yet.</p>
        ) : (
          <ul className="space-y-3">
            {targets.data.map((t) => (
              <TargetItem key={t.id} target={t} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
