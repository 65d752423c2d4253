import { Check } from 'lucide-react';

import { formatMonthlyPrice } from '../../../../../shared/pricing.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { cn } from '../../../lib/utils.ts';
import type { DashboardRole } from '../api/get-agent-roles.ts';

interface Props {
  role: DashboardRole;
  activated: boolean;
  selected: boolean;
  onToggle: (roleId: string) => void;
}

/** One role on the agents page: activated roles are locked ('Active & Monitoring'), others toggle. */
export function AgentSelectCard({ role, activated, selected, onToggle }: Props) {
  const inputId = `agent-${role.id}`;
  return (
    <Card
      data-testid="agent-select-card"
      className={cn(
        'flex flex-col transition-colors',
        selected && 'border-primary',
        activated && 'border-success/60',
      )}
    >
      <CardHeader>
        <div className="flex items-start justify-between gap-3">
          <CardTitle className="text-lg">
            <label htmlFor={inputId} className={cn(!activated && 'cursor-pointer')}>
              {role.name}
            </label>
          </CardTitle>
          {activated ? <Badge variant="success">Active</Badge> : null}
        </div>
        <CardDescription>{role.description}</CardDescription>
      </CardHeader>
      <CardContent className="mt-auto space-y-4">
        <ul className="space-y-1 text-sm">
          {role.features.map((feature) => (
            <li key={feature} className="flex gap-2">
              <Check className="size-4 shrink-0 text-success" aria-hidden />
              {feature}
            </li>
          ))}
        </ul>
        <div className="flex items-center justify-between">
          <span className="font-semibold">{formatMonthlyPrice(role.price_monthly)}</span>
          <span className="flex items-center gap-2 text-sm">
            {activated ? (
              <span className="text-success">Active &amp; Monitoring</span>
            ) : (
              <span>{selected ? 'Selected' : 'Select'}</span>
            )}
            <input
              id={inputId}
              type="checkbox"
              className="size-5 accent-primary"
              checked={activated || selected}
              disabled={activated}
              onChange={() => onToggle(role.id)}
              aria-label={activated ? `${role.name} is active` : `Select ${role.name}`}
            />
          </span>
        </div>
      </CardContent>
    </Card>
  );
}
