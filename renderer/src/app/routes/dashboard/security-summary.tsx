// The dashboard home's real summary of the customer's state: activated agents, the last scan, open alerts
// by severity and new findings per day. Skeletons hold each figure's place while it loads.
import type { ReactNode } from 'react';

import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import {
  activatedRoleIds,
  useAgentSubscriptions,
} from '../../../features/agents/api/get-agent-subscriptions.ts';
import { useRecentScans } from '../../../features/scanning/api/get-recent-scans.ts';
import { useFindingSummary } from '../../../features/dashboard/api/get-finding-summary.ts';
import { SEVERITIES } from '../../../features/dashboard/lib/summarize.ts';
import { TrendChart } from '../../../features/dashboard/components/trend-chart.tsx';

function Figure({ title, loading, children }: { title: string; loading: boolean; children: ReactNode }) {
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
      </CardHeader>
      {/* The skeleton and the figure take the same height: nothing below moves when data arrives. */}
      <CardContent>
        <div className="min-h-16">{loading ? <Skeleton className="h-16 w-full" /> : children}</div>
      </CardContent>
    </Card>
  );
}

const FAILED = <p className="text-sm text-destructive">Could not load this figure.</p>;

export function SecuritySummary({ userId }: { userId: string | undefined }) {
  const agents = useAgentSubscriptions(userId);
  const scans = useRecentScans(userId);
  const findings = useFindingSummary(userId);
  const lastScan = scans.data?.[0];
  const openTotal = findings.data ? SEVERITIES.reduce((sum, s) => sum + findings.data.open[s], 0) : 0;
  return (
    <section aria-label="Security summary" className="space-y-4">
      <div className="grid gap-4 md:grid-cols-3">
        <Figure title="Active agents" loading={agents.isPending}>
          {agents.isError ? (
            FAILED
          ) : (
            <p className="text-3xl font-bold">{activatedRoleIds(agents.data).size}</p>
          )}
        </Figure>
        <Figure title="Last scan" loading={scans.isPending}>
          {scans.isError ? (
            FAILED
          ) : lastScan ? (
            <div className="text-sm">
              <p className="truncate font-medium">{lastScan.target ?? lastScan.scan_type}</p>
              <p className="text-muted-foreground">
                {lastScan.status} · {new Date(lastScan.start_time ?? lastScan.created_at).toLocaleString()}
              </p>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">No scans yet.</p>
          )}
        </Figure>
        <Figure title="Open alerts" loading={findings.isPending}>
          {findings.isError || !findings.data ? (
            FAILED
          ) : (
            <div>
              <p className="text-3xl font-bold">{openTotal}</p>
              <ul className="mt-1 flex flex-wrap gap-x-3 text-xs text-muted-foreground">
                {SEVERITIES.map((s) => (
                  <li key={s}>
                    <span className="capitalize">{s}</span> {findings.data.open[s]}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </Figure>
      </div>
      <Figure title="New findings, last 14 days" loading={findings.isPending}>
        {findings.data ? <TrendChart trend={findings.data.trend} /> : FAILED}
      </Figure>
    </section>
  );
}
