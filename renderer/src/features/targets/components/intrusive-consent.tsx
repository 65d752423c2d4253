import { AlertTriangle } from 'lucide-react';
import { useId, useState } from 'react';

import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import type { ScanTarget } from '../api/get-targets.ts';
import { useIntrusiveConsent } from '../api/intrusive-consent.ts';

/**
 * Whether scans of this target may run intrusive checks. Off until the owner turns it on; turning it on
 * asks first, with what it allows; turning it off takes effect at once, for scans already queued too.
 */
export function IntrusiveConsentSection({ target }: { target: ScanTarget }) {
  const [asking, setAsking] = useState(false);
  const consent = useIntrusiveConsent();
  const switchId = useId();
  const warningId = useId();
  const allowed = target.allow_intrusive;

  const save = (allow: boolean) =>
    consent.mutate(
      { id: target.id, allow },
      {
        onSuccess: () => {
          setAsking(false);
          toast({
            title: allow ? 'Intrusive checks allowed' : 'Intrusive checks off',
            description: allow
              ? `Scans of ${target.value} will also run checks that write test markers and remove them.`
              : `Scans of ${target.value} will only read; nothing is written to it.`,
          });
        },
        onError: (error) =>
          toast({ title: 'Setting not saved', description: error.message, variant: 'destructive' }),
      },
    );

  return (
    <div className="space-y-2 text-sm">
      <div className="flex items-center gap-3">
        <Switch
          id={switchId}
          checked={allowed || asking}
          disabled={consent.isPending}
          aria-describedby={asking ? warningId : undefined}
          onCheckedChange={(on) => (on ? setAsking(true) : asking ? setAsking(false) : save(false))}
        />
        <label htmlFor={switchId} className="cursor-pointer">
          Intrusive checks{' '}
          <span className="text-muted-foreground">
            {allowed
              ? `allowed${target.intrusive_allowed_at ? ` since ${new Date(target.intrusive_allowed_at).toLocaleString()}` : ''}`
              : 'off: scans only read from this target'}
          </span>
        </label>
      </div>
      {asking ? (
        <Alert variant="warning" id={warningId}>
          <AlertTriangle aria-hidden className="size-4" />
          <AlertTitle>Allow checks that change this target?</AlertTitle>
          <AlertDescription className="space-y-2">
            <p>
              Intrusive checks prove a problem by doing what an attacker would: they write uniquely named test
              files (for example over WebDAV, HTTP PUT or anonymous FTP) and may send forms, then delete what
              they wrote. They never change or delete data they did not create, but a write can still reach
              logs, backups, storage quotas or anyone watching the site.
            </p>
            <p>
              Allow them only for a target you own that can take test writes, ideally a staging copy. You can
              turn them off at any time; scans then only read.
            </p>
            <div className="flex flex-wrap gap-2 pt-1">
              <Button type="button" size="sm" disabled={consent.isPending} onClick={() => save(true)}>
                {consent.isPending ? 'Saving…' : 'Allow intrusive checks'}
              </Button>
              <Button type="button" size="sm" variant="ghost" onClick={() => setAsking(false)}>
                Cancel
              </Button>
            </div>
          </AlertDescription>
        </Alert>
      ) : null}
    </div>
  );
}
