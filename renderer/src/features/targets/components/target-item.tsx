import { CheckCircle2, Copy, ShieldQuestion, Trash2 } from 'lucide-react';

import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import type { ScanTarget } from '../api/get-targets.ts';
import { useRemoveTarget } from '../api/remove-target.ts';
import { useVerifyTarget } from '../api/verify-target.ts';
import { type TargetKind, verificationInstructions } from '../lib/target-input.ts';
import { IntrusiveConsentSection } from './intrusive-consent.tsx';
import { TargetLoginSection } from './target-login.tsx';

const copy = (text: string) =>
  void navigator.clipboard.writeText(text).then(
    () => toast({ title: 'Copied', description: 'The verification token is on your clipboard.' }),
    // Clipboard access can be refused (insecure origin, permissions): the token stays visible to copy by hand.
    () =>
      toast({
        title: 'Copy failed',
        description: 'Select the token and copy it by hand.',
        variant: 'destructive',
      }),
  );

/** One target: its proof state, the token and where to put it, and the Verify action. */
export function TargetItem({ target }: { target: ScanTarget }) {
  const verify = useVerifyTarget();
  const remove = useRemoveTarget();
  const kind = target.kind as TargetKind;
  const how = verificationInstructions(kind, target.value, target.verification_token);
  const tokenId = `token-${target.id}`;

  const runVerify = () =>
    verify.mutate(
      { id: target.id, kind },
      {
        onSuccess: (result) =>
          toast(
            result.verified
              ? {
                  title: 'Target verified',
                  description: `${target.value} is proven yours and can be scanned.`,
                }
              : {
                  title: 'Verification pending',
                  description: result.message || 'The check is queued; look again shortly.',
                },
          ),
        onError: (error) =>
          toast({ title: 'Verification failed', description: error.message, variant: 'destructive' }),
      },
    );

  return (
    <li className="space-y-3 rounded-lg border p-4" aria-label={target.value}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate font-medium" title={target.value}>
            {target.value}
          </p>
          <p className="text-xs text-muted-foreground">
            {kind === 'url' ? 'Website' : kind === 'host' ? 'Server' : 'API'}
            {target.openapi_url ? ` · OpenAPI: ${target.openapi_url}` : ''}
          </p>
        </div>
        {target.verified_at ? (
          <Badge variant="success">
            <CheckCircle2 className="mr-1 size-3" aria-hidden />
            Verified
          </Badge>
        ) : (
          <Badge variant="outline">
            <ShieldQuestion className="mr-1 size-3" aria-hidden />
            Not verified
          </Badge>
        )}
      </div>
      {target.verified_at ? (
        <p className="text-sm text-muted-foreground">
          Verified {new Date(target.verified_at).toLocaleString()} by{' '}
          {target.verification_method === 'dns' ? 'DNS TXT record' : 'well-known file'}.
        </p>
      ) : (
        <div className="space-y-2 text-sm">
          <p>Prove this target is yours by doing one of these, then choose Verify:</p>
          <ul className="list-disc space-y-1 pl-5 text-muted-foreground">
            <li>
              Serve the token below as the whole content of <code className="break-all">{how.httpUrl}</code>
            </li>
            <li>
              or add a DNS TXT record on <code className="break-all">{how.dnsName}</code> with the value{' '}
              <code className="break-all">{how.txt}</code>
            </li>
          </ul>
          <div className="flex items-center gap-2">
            <label htmlFor={tokenId} className="sr-only">
              Verification token for {target.value}
            </label>
            <input
              id={tokenId}
              readOnly
              value={target.verification_token}
              onFocus={(e) => e.currentTarget.select()}
              className="h-9 min-w-0 flex-1 rounded-md border border-input bg-muted px-2 font-mono text-xs"
            />
            <Button
              type="button"
              size="icon"
              variant="outline"
              aria-label="Copy token"
              onClick={() => copy(target.verification_token)}
            >
              <Copy aria-hidden />
            </Button>
          </div>
          {target.verification_error ? (
            <p role="status" className="text-destructive">
              Last check: {target.verification_error}
            </p>
          ) : null}
        </div>
      )}
      {kind === 'url' ? <TargetLoginSection target={target} /> : null}
      <IntrusiveConsentSection target={target} />
      <div className="flex flex-wrap gap-2">
        {!target.verified_at ? (
          <Button type="button" onClick={runVerify} disabled={verify.isPending}>
            {verify.isPending ? 'Verifying…' : 'Verify'}
          </Button>
        ) : null}
        <Button
          type="button"
          variant="ghost"
          aria-label={`Remove ${target.value}`}
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(target.id, {
              onError: (error) =>
                toast({
                  title: 'Could not remove target',
                  description: error.message,
                  variant: 'destructive',
                }),
            })
          }
        >
          <Trash2 aria-hidden />
          Remove
        </Button>
      </div>
    </li>
  );
}
