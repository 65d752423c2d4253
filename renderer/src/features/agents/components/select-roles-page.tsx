import { Info, Loader2 } from 'lucide-react';

import { Alert, AlertDescription } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { useAgentRoles } from '../api/get-agent-roles.ts';
import { activatedRoleIds, useAgentSubscriptions } from '../api/get-agent-subscriptions.ts';
import { useTrialAvailable } from '../api/get-trial-availability.ts';
import { useRoleSelection } from '../hooks/use-role-selection.ts';
import { useStartCheckout } from '../hooks/use-start-checkout.ts';
import { CHECKOUT_MESSAGES } from '../messages.ts';
import { AgentSelectCard } from './agent-select-card.tsx';
import { OrderSummary } from './order-summary.tsx';

/**
 * /dashboard/select-roles (docs/product.md §4, §5, §6, §8): visitors and customers pick agents and see the order;
 * checkout sends visitors to /auth first and customers to the payment page.
 */
export function SelectRolesPage() {
  const { user } = useAuth();
  const roles = useAgentRoles();
  const subscriptions = useAgentSubscriptions(user?.id);
  const trial = useTrialAvailable(user?.id);
  const { selected, toggle } = useRoleSelection();
  const { phase, start } = useStartCheckout();

  if (roles.isPending || (user && (subscriptions.isPending || trial === undefined))) {
    return <Spinner label="Loading your selection" />;
  }
  if (roles.isError) {
    return (
      <Alert variant="destructive">
        <AlertDescription>Security agents could not be loaded. Please reload the page.</AlertDescription>
      </Alert>
    );
  }
  const activated = activatedRoleIds(subscriptions.data);
  const chosen = roles.data.filter((r) => selected.has(r.id) && !activated.has(r.id));
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold">Activate Security Agents</h1>
        <p className="text-muted-foreground">
          {trial ? 'Choose your agents and start your 7-day free trial.' : 'Choose your agents.'} Bundle and
          save: 2 agents 10%, 3 agents 15%, 4 or more 20%.
        </p>
      </div>
      {trial === false ? (
        <Alert>
          <Info aria-hidden />
          <AlertDescription>
            <p className="font-medium">{CHECKOUT_MESSAGES.noTrialTitle}</p>
            <p>{CHECKOUT_MESSAGES.noTrial}</p>
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid gap-4 md:grid-cols-2 lg:col-span-2">
          {roles.data.map((role) => (
            <AgentSelectCard
              key={role.id}
              role={role}
              activated={activated.has(role.id)}
              selected={selected.has(role.id)}
              onToggle={toggle}
            />
          ))}
        </div>
        <aside className="space-y-4 lg:sticky lg:top-24 lg:self-start" aria-label="Your order">
          {chosen.length === 0 ? (
            <Alert variant="destructive">
              <AlertDescription>{CHECKOUT_MESSAGES.noAgents}</AlertDescription>
            </Alert>
          ) : (
            <OrderSummary roles={chosen} trial={trial !== false} />
          )}
          <Button
            size="lg"
            className="w-full"
            disabled={phase !== 'idle'}
            onClick={() => void start(chosen.map((r) => r.id))}
          >
            {phase === 'idle' ? (
              trial === false ? (
                'Subscribe Now'
              ) : (
                'Start 7-Day Free Trial'
              )
            ) : (
              <>
                <Loader2 className="animate-spin" aria-hidden />
                {phase === 'processing' ? 'Processing...' : 'Redirecting to checkout...'}
              </>
            )}
          </Button>
          {user ? null : (
            <p className="text-center text-sm text-muted-foreground">
              You will sign in or create your account before checkout.
            </p>
          )}
        </aside>
      </div>
    </div>
  );
}
