import { Link } from 'react-router-dom';

import { formatMonthlyPrice, formatPrice } from '../../../../../shared/pricing.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { platform } from '../../../lib/platform/index.ts';
import { type BillingSummary, useBillingSummary } from '../api/get-billing-summary.ts';
import { type BillingAction, useManageSubscription } from '../api/manage-subscription.ts';
import { useSubscriptionChanges } from '../hooks/use-subscription-changes.ts';

const STATUS_TEXT: Record<string, string> = {
  trialing: 'Free trial',
  active: 'Active',
  past_due: 'Payment past due',
  canceled: 'Canceled',
  incomplete: 'Incomplete',
  unpaid: 'Unpaid',
};

const day = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' }) : '—';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-4 text-sm">
      <span className="text-muted-foreground">{label}</span>
      <span className="text-right">{children}</span>
    </div>
  );
}

function Details({ summary }: { summary: BillingSummary }) {
  return (
    <div className="space-y-2">
      <Row label="Plan">
        {summary.agents.length > 0 ? summary.agents.map((a) => a.name).join(', ') : 'No active agents'}
      </Row>
      <Row label="Status">
        <Badge variant={summary.status === 'past_due' ? 'destructive' : 'secondary'}>
          {STATUS_TEXT[summary.status] ?? summary.status}
        </Badge>
      </Row>
      {summary.status === 'trialing' ? <Row label="Trial ends">{day(summary.trial_ends_at)}</Row> : null}
      {summary.next_charge_amount !== null ? (
        <Row label="Next charge">
          {formatPrice(summary.next_charge_amount)} on {day(summary.next_charge_at)}
        </Row>
      ) : null}
      {summary.cancel_at_period_end ? (
        <Row label="Ends">
          {day(summary.status === 'trialing' ? summary.trial_ends_at : summary.current_period_ends_at)}{' '}
          (canceled, no further charges)
        </Row>
      ) : null}
      {summary.next_charge_amount !== null ? (
        <Row label="Monthly">{formatMonthlyPrice(summary.next_charge_amount)}</Row>
      ) : null}
    </div>
  );
}

/** Settings → Billing: the plan, trial end and next charge; cancel at period end or resume; the portal. */
export function BillingSection() {
  const { user } = useAuth();
  const summary = useBillingSummary(user?.id);
  useSubscriptionChanges(user?.id);
  const manage = useManageSubscription();

  const run = (action: BillingAction) =>
    manage.mutate(action, {
      onSuccess: (result) => {
        if (result.url) {
          platform.openExternal(result.url);
        } else {
          toast({
            title: action === 'cancel' ? 'Subscription will end at the period end' : 'Subscription resumed',
          });
        }
      },
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Billing update failed', description: error.message }),
    });

  const live = summary.data && ['trialing', 'active', 'past_due'].includes(summary.data.status);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Billing</CardTitle>
        <CardDescription>Your agents' subscription. 7-day free trial, cancel anytime.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {summary.isPending ? <Spinner label="Loading billing" /> : null}
        {summary.isError ? (
          <p className="text-sm text-destructive">Billing details could not be loaded.</p>
        ) : null}
        {summary.data ? <Details summary={summary.data} /> : null}
        {summary.isSuccess && !summary.data ? (
          <p className="text-sm text-muted-foreground">
            No subscription yet.{' '}
            <Link className="text-primary underline" to="/dashboard/agents">
              Choose your agents
            </Link>{' '}
            to start a free trial.
          </p>
        ) : null}
        {live ? (
          <div className="flex flex-wrap gap-3">
            {summary.data?.cancel_at_period_end ? (
              <Button disabled={manage.isPending} onClick={() => run('resume')}>
                Resume subscription
              </Button>
            ) : (
              <Button variant="outline" disabled={manage.isPending} onClick={() => run('cancel')}>
                Cancel subscription
              </Button>
            )}
            <Button variant="ghost" disabled={manage.isPending} onClick={() => run('portal')}>
              Manage payment details
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
