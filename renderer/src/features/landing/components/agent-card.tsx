import { Check } from 'lucide-react';
import { Link } from 'react-router-dom';

import type { AgentRole } from '../../../../../shared/constants.ts';
import { formatPrice } from '../../../../../shared/pricing.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card.tsx';
import { cn } from '../../../lib/utils.ts';
import { roleIcon } from './role-icon.tsx';

export function AgentCard({ role, className }: { role: AgentRole; className?: string }) {
  const Icon = roleIcon(role.role_type);
  return (
    <Card className={cn('flex flex-col', className)} data-testid="agent-card">
      <CardHeader>
        <Icon className="size-10 text-primary" aria-hidden />
        <CardTitle as="h3">{role.name}</CardTitle>
        <CardDescription>{role.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1 space-y-4">
        <p>
          <span className="text-3xl font-bold">{formatPrice(role.price_monthly)}</span>
          <span className="text-muted-foreground">/month</span>
        </p>
        <ul className="space-y-2 text-sm">
          {role.features.map((feature) => (
            <li key={feature} className="flex gap-2">
              <Check className="size-4 shrink-0 text-success" aria-hidden />
              {feature}
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter>
        <Button className="w-full" asChild>
          {/* Selection starts here for visitors too (docs/product.md §6); checkout then asks them to sign in. */}
          <Link to="/dashboard/select-roles" state={{ selectedRoles: [role.id] }}>
            Start Free Trial
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
