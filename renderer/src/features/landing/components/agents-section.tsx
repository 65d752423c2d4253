import { Loader2 } from 'lucide-react';

import { TRIAL_DAYS } from '../../../../../shared/constants.ts';
import { useLandingAgentRoles } from '../api/get-agent-roles.ts';
import { AgentCard } from './agent-card.tsx';

export function AgentsSection() {
  const { data, isPending } = useLandingAgentRoles();
  const roles = data?.roles ?? [];
  const cloud = roles.find((role) => role.role_type === 'cloud_security');
  const grid = roles.filter((role) => role !== cloud);

  return (
    <section id="agents" className="scroll-mt-20 px-4 py-20" aria-labelledby="agents-title">
      <div className="mx-auto max-w-7xl space-y-10">
        <div className="space-y-3 text-center">
          <h2 id="agents-title" className="text-3xl font-bold sm:text-4xl">
            Choose Your Security Agents
          </h2>
          <p className="mx-auto max-w-2xl text-muted-foreground">
            Each agent is a specialist that works around the clock. Combine agents to save up to 20% — every
            plan starts with a {TRIAL_DAYS}-day free trial.
          </p>
        </div>
        {isPending ? (
          <p className="flex items-center justify-center gap-2 text-muted-foreground" role="status">
            <Loader2 className="size-5 animate-spin" aria-hidden /> Loading security agents...
          </p>
        ) : roles.length === 0 ? (
          <div className="text-center">
            <h3 className="text-xl font-semibold">No Agent Roles Available</h3>
            <p className="text-muted-foreground">Please check back soon.</p>
          </div>
        ) : (
          <>
            <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {grid.map((role) => (
                <AgentCard key={role.id} role={role} />
              ))}
            </div>
            {cloud ? (
              <div className="flex justify-center" data-testid="cloud-security-card">
                <AgentCard role={cloud} className="w-full sm:max-w-md" />
              </div>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}
