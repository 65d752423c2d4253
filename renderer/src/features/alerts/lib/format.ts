// Pure presentation rules of the Security Alerts page (docs/product.md §3, §9).
export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';
export type BadgeVariant = 'destructive' | 'default' | 'secondary' | 'outline';

/** Confidence 0..1 as a rounded percentage: 0.874 → "87%". Out-of-range values are clamped. */
export function confidencePercent(score: number): string {
  const clamped = Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0;
  return `${Math.round(clamped * 100)}%`;
}

/** Badge variant of a severity or priority: the worst stand out. */
export function severityBadge(severity: string): BadgeVariant {
  switch (severity) {
    case 'critical':
    case 'high':
      return 'destructive';
    case 'medium':
      return 'default';
    case 'low':
      return 'secondary';
    default:
      return 'outline';
  }
}

/** Tomorrow + days as yyyy-mm-dd, for the accepted-risk expiry picker (the server allows at most a year). */
export function isoDateInDays(days: number, from: Date = new Date()): string {
  const d = new Date(from.getTime() + days * 86_400_000);
  return d.toISOString().slice(0, 10);
}

/** The end of the chosen day (UTC) as the acceptance's expiry, or an error text. */
export function acceptedUntil(date: string, now: Date = new Date()): { value: string } | { error: string } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    return { error: 'Choose the date the acceptance ends.' };
  }
  const until = new Date(`${date}T23:59:59.000Z`);
  if (Number.isNaN(until.getTime()) || until.getTime() <= now.getTime()) {
    return { error: 'The acceptance must end in the future.' };
  }
  if (until.getTime() > now.getTime() + 365 * 86_400_000) {
    return { error: 'A risk can be accepted for at most a year.' };
  }
  return { value: until.toISOString() };
}

export const triageLabels: Record<string, string> = {
  open: 'Open',
  // Only a rescan by the agents marks a finding fixed (the customer cannot): it is their verification.
  fixed: 'Verified fixed by the agent',
  accepted_risk: 'Accepted risk',
  false_positive: 'False positive',
};
