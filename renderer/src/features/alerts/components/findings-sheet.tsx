import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '../../../components/ui/sheet.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { type FindingsRef, useFindings } from '../api/get-findings.ts';
import { FindingDetail } from './finding-detail.tsx';

export interface OpenedAlert {
  title: string;
  description: string;
  ref: FindingsRef | null;
}

/** A side sheet with the findings behind the alert the person opened. */
export function FindingsSheet({
  userId,
  opened,
  onClose,
}: {
  userId: string;
  opened: OpenedAlert | null;
  onClose: () => void;
}) {
  const findings = useFindings(userId, opened?.ref ?? null);
  return (
    <Sheet open={opened !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <SheetContent className="w-full overflow-y-auto sm:max-w-xl">
        <SheetHeader>
          <SheetTitle>{opened?.title}</SheetTitle>
          <SheetDescription>{opened?.description}</SheetDescription>
        </SheetHeader>
        <div className="mt-4 space-y-4">
          {opened?.ref === null ? (
            <p className="text-sm text-muted-foreground">
              This alert is about your history as a whole; it has no individual findings.
            </p>
          ) : findings.isPending ? (
            <Skeleton className="h-40 w-full" />
          ) : findings.isError ? (
            <p className="text-sm text-destructive">
              The findings could not be loaded: {findings.error.message}
            </p>
          ) : findings.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">No findings are linked to this alert any more.</p>
          ) : (
            findings.data.map((f) => <FindingDetail key={f.id} finding={f} />)
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
