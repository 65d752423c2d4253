import { ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { Alert, AlertDescription } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { useAgentsStatus } from '../api/ensure-agents-status.ts';
import { useAgentRoles } from '../api/get-agent-roles.ts';
import { activatedRoleIds, useAgentSubscriptions } from '../api/get-agent-subscriptions.ts';
import { useTrialAvailable } from '../api/get-trial-availability.ts';
import { CHECKOUT_MESSAGES } from '../messages.ts';
import { toggledRole } from '../hooks/selected-roles.ts';
import { AgentSelectCard } from './agent-select-card.tsx';

/** /dashboard/agents (docs/product.md §2): every role; activated ones locked, others selectable for checkout. */
export function AgentsPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const roles = useAgentRoles();
  const subscriptions = useAgentSubscriptions(user?.id);
  const trial = useTrialAvailable(user?.id);
  // Creates the user's missing ai_agents_status rows (docs/product.md §4) on first visit.
  useAgentsStatus(user?.id);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const activated = activatedRoleIds(subscriptions.data);

  const toggle = (roleId: string) => setSelected((current) => toggledRole(current, roleId));

  const activate = () => {
    const roleIds = [...selected].filter((id) => !activated.has(id));
    void navigate('/dashboard/select-roles', { state: { selectedRoles: roleIds } });
  };

  if (roles.isPending) {
    return <Spinner label="Loading security agents" />;
  }
  if (roles.isError) {
    return (
      <Alert variant="destructive">
        <AlertDescription>Security agents could not be loaded. Please reload the page.</AlertDescription>
      </Alert>
    );
  }
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">AI Security Agents</h1>
          <p className="text-muted-foreground">
            {activated.size > 0
              ? `${activated.size} of ${roles.data.length} agents active`
              : trial === false
                ? `Select agents to subscribe. ${CHECKOUT_MESSAGES.noTrialTitle}.`
                : 'Select agents to start your 7-day free trial.'}
          </p>
        </div>
        <Button disabled={selected.size === 0} onClick={activate}>
          Activate Selected Agents{selected.size > 0 ? ` (${selected.size})` : ''}
        </Button>
      </div>
      {roles.data.length === 0 ? (
        <div className="flex flex-col items-center gap-4 rounded-lg border border-dashed p-12 text-center">
          <ShieldOff className="size-10 text-muted-foreground" aria-hidden />
          <h2 className="text-xl font-semibold">No Active Agents</h2>
          <p className="text-muted-foreground">No security agents are available right now.</p>
          <Button asChild variant="outline">
            <Link to="/">Back to Home</Link>
          </Button>
        </div>
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
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
      )}
    </div>
  );
}
