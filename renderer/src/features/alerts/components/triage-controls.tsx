import { useState } from 'react';

import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import type { Finding } from '../api/get-findings.ts';
import { type Triage, useTriageFinding } from '../api/triage-finding.ts';
import { acceptedUntil, isoDateInDays } from '../lib/format.ts';

/** Triage of one finding: accept the risk until a date, mark it a false positive, or reopen it. Fixed is automatic. */
export function TriageControls({ finding }: { finding: Finding }) {
  const triage = useTriageFinding();
  const [until, setUntil] = useState(isoDateInDays(30));
  const [error, setError] = useState<string | null>(null);
  const dateId = `accept-until-${finding.id}`;

  const apply = (next: Triage, done: string) =>
    triage.mutate(
      { id: finding.id, triage: next },
      {
        onSuccess: () => {
          setError(null);
          toast({ title: 'Finding updated', description: done });
        },
        onError: (e) => setError(e.message),
      },
    );

  const accept = () => {
    const parsed = acceptedUntil(until);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    apply({ status: 'accepted_risk', acceptedUntil: parsed.value }, `Risk accepted until ${until}.`);
  };

  if (finding.status === 'fixed') {
    return <p className="text-sm text-muted-foreground">Fixed: the latest scan no longer sees this issue.</p>;
  }
  return (
    <div className="space-y-2">
      {finding.status === 'open' ? (
        <div className="flex flex-wrap items-end gap-2">
          <div className="space-y-1">
            <label htmlFor={dateId} className="text-xs font-medium">
              Accept risk until
            </label>
            <input
              id={dateId}
              type="date"
              value={until}
              min={isoDateInDays(1)}
              max={isoDateInDays(365)}
              onChange={(e) => setUntil(e.target.value)}
              className="h-9 rounded-md border border-input bg-background px-2 text-sm"
            />
          </div>
          <Button size="sm" variant="outline" disabled={triage.isPending} onClick={accept}>
            Accept Risk
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={triage.isPending}
            onClick={() => apply({ status: 'false_positive' }, 'Marked as a false positive.')}
          >
            False Positive
          </Button>
        </div>
      ) : (
        <Button
          size="sm"
          variant="outline"
          disabled={triage.isPending}
          onClick={() => apply({ status: 'open' }, 'The finding is open again.')}
        >
          Reopen
        </Button>
      )}
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
