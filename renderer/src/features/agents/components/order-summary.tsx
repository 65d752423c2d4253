import { bundleQuote, formatMonthlyPrice, formatPrice } from '../../../../../shared/pricing.ts';
import { TRIAL_DAYS } from '../../../../../shared/constants.ts';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import type { DashboardRole } from '../api/get-agent-roles.ts';

/**
 * What the buyer pays: each role, the bundle discount, the monthly total after the free trial, or, for a
 * customer who had their trial, the first month today.
 */
export function OrderSummary({ roles, trial }: { roles: readonly DashboardRole[]; trial: boolean }) {
  const quote = bundleQuote(roles.map((r) => r.price_monthly));
  const firstCharge = new Date(Date.now() + TRIAL_DAYS * 86_400_000).toLocaleDateString(undefined, {
    dateStyle: 'long',
  });
  return (
    <Card data-testid="order-summary">
      <CardHeader>
        <CardTitle className="text-lg">Order Summary</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <ul className="space-y-2">
          {roles.map((role) => (
            <li key={role.id} className="flex justify-between gap-4">
              <span>{role.name}</span>
              <span>{formatMonthlyPrice(role.price_monthly)}</span>
            </li>
          ))}
        </ul>
        <div className="space-y-2 border-t pt-3 text-sm">
          <div className="flex justify-between">
            <span>Subtotal</span>
            <span>{formatMonthlyPrice(quote.subtotal)}</span>
          </div>
          {quote.discount > 0 ? (
            <div className="flex justify-between text-success">
              <span>
                Bundle discount ({Math.round(quote.discountRate * 100)}% for {roles.length} agents)
              </span>
              <span>−{formatPrice(quote.discount)}</span>
            </div>
          ) : null}
        </div>
        <div className="flex justify-between border-t pt-3 text-lg font-bold">
          <span>Total</span>
          <span>{formatMonthlyPrice(quote.total)}</span>
        </div>
        <div className="flex justify-between text-sm">
          <span>Due today</span>
          <span>{formatPrice(trial ? 0 : quote.total)}</span>
        </div>
        <p className="text-sm text-muted-foreground">
          {trial
            ? `${TRIAL_DAYS}-day free trial, then ${formatMonthlyPrice(quote.total)} from ${firstCharge}. Cancel anytime.`
            : `No free trial: ${formatMonthlyPrice(quote.total)} from today. Cancel anytime.`}
        </p>
      </CardContent>
    </Card>
  );
}
