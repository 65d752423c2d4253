import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '../../../components/ui/sheet.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { AlertNoLongerOpen, useCloseAlert } from '../api/close-alert.ts';
import { type FindingsRef, useFindings } from '../api/get-findings.ts';
import { FindingDetail } from './finding-detail.tsx';

export interface OpenedAlert {
  title: string;
  description: string;
  ref: FindingsRef | null;
  /** The customer's way to close this alert by hand, when it has one. */
  close?: { kind: 'recommendation' | 'event'; id: string; label: string };
}

const closedToast: Record<string, { title: string; description: string }> = {
  in_progress: {
    title: 'Verification scan requested',
    description: 'The agents will rescan to check the fix.',
  },
  completed: { title: 'Recommendation completed', description: 'Marked implemented by you.' },
  resolved: { title: 'Alert resolved', description: 'A later scan that still finds it reopens it.' },
};

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
  const closeAlert = useCloseAlert();
  const close = opened?.close;
  const onCloseAlert = () =>
    close &&
    closeAlert.mutate(close, {
      onSuccess: (outcome) => {
        toast(closedToast[outcome] ?? { title: 'Saved', description: '' });
        onClose();
      },
      onError: (error) => {
        toast({ title: 'Not saved', description: error.message, variant: 'destructive' });
        // Nothing is left to do for an alert closed meanwhile; any other failure keeps the sheet to retry.
        if (error instanceof AlertNoLongerOpen) {
          onClose();
        }
      },
    });
  return (
    <Sheet open={opened !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <SheetContent className="w-full overflow-y-auto sm:max-w-xl">
        <SheetHeader>
          <SheetTitle>{opened?.title}</SheetTitle>
          <SheetDescription>{opened?.description}</SheetDescription>
        </SheetHeader>
        <div className="mt-4 space-y-4">
          {close ? (
            // The accessible name says which alert the action closes (the visible label alone does not).
            <Button
              type="button"
              onClick={onCloseAlert}
              disabled={closeAlert.isPending}
              aria-label={`${close.label}: ${opened?.title ?? ''}`}
            >
              {close.label}
            </Button>
          ) : null}
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
