import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';

import { Alert, AlertDescription } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { platform } from '../../../lib/platform/index.ts';
import { useCreateCheckout } from '../api/create-checkout.ts';
import { useAgentRoles } from '../api/get-agent-roles.ts';
import { activatedRoleIds, useAgentSubscriptions } from '../api/get-agent-subscriptions.ts';
import { clearSelectedRoles, readSelectedRoles, storeSelectedRoles } from '../hooks/selected-roles.ts';
import { CHECKOUT_MESSAGES } from '../messages.ts';
import { OrderSummary } from './order-summary.tsx';

type Phase = 'idle' | 'processing' | 'redirecting';

/** /dashboard/select-roles (SPEC points 4, 5, 8): the order and checkout (idle → processing → redirect). */
export function SelectRolesPage() {
  const { user } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const roles = useAgentRoles();
  const subscriptions = useAgentSubscriptions(user?.id);
  const checkout = useCreateCheckout();
  const [phase, setPhase] = useState<Phase>('idle');
  const [requested] = useState(() => readSelectedRoles(location.state));

  const activated = activatedRoleIds(subscriptions.data);
  const chosen = (roles.data ?? []).filter((r) => requested.includes(r.id) && !activated.has(r.id));
  const alreadyActive = (roles.data ?? []).filter((r) => requested.includes(r.id) && activated.has(r.id));

  const start = async () => {
    const roleIds = chosen.map((r) => r.id);
    // A visitor signs in first and comes back here with the same selection.
    if (!user) {
      storeSelectedRoles(roleIds);
      void navigate('/auth', { state: { from: 'agent-selection', selectedRoles: roleIds } });
      return;
    }
    setPhase('processing');
    try {
      const url = await checkout.mutateAsync({ roleIds, userId: user.id });
      setPhase('redirecting');
      clearSelectedRoles();
      if (platform.kind === 'desktop') {
        platform.openExternal(url);
        setPhase('idle');
      } else {
        window.location.assign(url);
      }
    } catch (error) {
      setPhase('idle');
      toast({
        variant: 'destructive',
        title: CHECKOUT_MESSAGES.activationFailedTitle,
        description: error instanceof Error && error.message ? error.message : CHECKOUT_MESSAGES.activationFailed,
      });
    }
  };

  if (roles.isPending || (user && subscriptions.isPending)) {
    return <Spinner label="Loading your selection" />;
  }
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div>
        <h1 className="text-3xl font-bold">Activate Security Agents</h1>
        <p className="text-muted-foreground">Review your agents and start your free trial.</p>
      </div>
      {alreadyActive.length > 0 ? (
        <Alert>
          <AlertDescription>Already active and left out of this order: {alreadyActive.map((r) => r.name).join(', ')}.</AlertDescription>
        </Alert>
      ) : null}
      {chosen.length === 0 ? (
        <Alert variant="destructive">
          <AlertDescription>{CHECKOUT_MESSAGES.noAgents}</AlertDescription>
        </Alert>
      ) : (
        <OrderSummary roles={chosen} />
      )}
      <p className="text-sm text-muted-foreground">Bundle and save: 2 agents 10%, 3 agents 15%, 4 or more 20% off every month.</p>
      <div className="flex flex-wrap gap-3">
        <Button size="lg" disabled={phase !== 'idle' || chosen.length === 0} onClick={() => void start()}>
          {phase === 'idle' ? (
            'Start 7-Day Free Trial'
          ) : (
            <>
              <Loader2 className="animate-spin" aria-hidden />
              {phase === 'processing' ? 'Processing...' : 'Redirecting to checkout...'}
            </>
          )}
        </Button>
        <Button size="lg" variant="outline" asChild>
          <Link to="/dashboard/agents">Change selection</Link>
        </Button>
      </div>
    </div>
  );
}
