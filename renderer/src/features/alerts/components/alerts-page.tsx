import { useState } from 'react';

import { Badge } from '../../../components/ui/badge.tsx';
import { useMlInsights } from '../api/get-ml-insights.ts';
import { useRecommendations } from '../api/get-recommendations.ts';
import { useSecurityEvents } from '../api/get-security-events.ts';
import { useAlertChanges } from '../hooks/use-alert-changes.ts';
import { confidencePercent, severityBadge } from '../lib/format.ts';
import { insightFindingsRef, recommendationSteps } from '../lib/findings-ref.ts';
import { AlertRow, AlertSection } from './alert-section.tsx';
import { FindingsSheet, type OpenedAlert } from './findings-sheet.tsx';

const when = (iso: string) => new Date(iso).toLocaleString();

/** /dashboard/alerts (docs/product.md §2): open security events, ML insights and recommendations. */
export function AlertsPage({ userId }: { userId: string }) {
  useAlertChanges(userId);
  const events = useSecurityEvents(userId);
  const insights = useMlInsights(userId);
  const recommendations = useRecommendations(userId);
  const [opened, setOpened] = useState<OpenedAlert | null>(null);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold">Security Alerts</h1>
        <p className="text-muted-foreground">
          Open security events, ML insights and AI security recommendations
        </p>
      </div>
      <AlertSection
        id="events-title"
        title="Security Events"
        description="Open events, newest first."
        query={events}
        empty="No open security events."
      >
        {(e) => (
          <AlertRow
            key={e.id}
            label={`${e.severity} event: ${e.description}`}
            onOpen={() =>
              setOpened({
                title: e.description,
                description: `${e.event_type.replaceAll('_', ' ')} · ${when(e.created_at)}`,
                ref: e.finding_id ? { ids: [e.finding_id] } : null,
                close: { kind: 'event', id: e.id, label: 'Mark resolved' },
              })
            }
          >
            <span className="flex flex-wrap items-center gap-2">
              <Badge variant={severityBadge(e.severity)} className="capitalize">
                {e.severity}
              </Badge>
              <span className="text-xs text-muted-foreground">{when(e.created_at)}</span>
            </span>
            <span className="text-sm break-words">{e.description}</span>
          </AlertRow>
        )}
      </AlertSection>
      <div className="grid gap-6 lg:grid-cols-2">
        <AlertSection
          id="insights-title"
          title="ML Insights"
          description="Statistics over your own scan history."
          query={insights}
          empty="No insights yet."
        >
          {(i) => (
            <AlertRow
              key={i.id}
              label={`Insight: ${i.title}`}
              onOpen={() =>
                setOpened({ title: i.title, description: i.description, ref: insightFindingsRef(i.data) })
              }
            >
              <span className="flex items-center justify-between gap-2">
                <span className="font-medium">{i.title}</span>
                <Badge variant="secondary">{confidencePercent(i.confidence_score)} confidence</Badge>
              </span>
              <span className="text-sm text-muted-foreground">{i.description}</span>
            </AlertRow>
          )}
        </AlertSection>
        <AlertSection
          id="recommendations-title"
          title="Security Recommendations"
          description="Pending changes, most important first to fix."
          query={recommendations}
          empty="No pending recommendations."
        >
          {(r) => (
            <AlertRow
              key={r.id}
              label={`Recommendation: ${r.title}`}
              onOpen={() =>
                setOpened({
                  title: r.title,
                  description: [
                    r.description,
                    ...recommendationSteps(r.steps).map((s, n) => `${n + 1}. ${s.title}`),
                  ].join(' '),
                  ref: r.finding_id ? { ids: [r.finding_id] } : null,
                  close: { kind: 'recommendation', id: r.id, label: 'Mark implemented' },
                })
              }
            >
              <span className="flex items-center justify-between gap-2">
                <span className="font-medium">{r.title}</span>
                <Badge variant={severityBadge(r.priority)} className="capitalize">
                  {r.priority}
                </Badge>
              </span>
              <span className="text-sm text-muted-foreground">{r.description}</span>
              {r.resolution ? <span className="text-sm">{r.resolution}</span> : null}
            </AlertRow>
          )}
        </AlertSection>
      </div>
      <FindingsSheet userId={userId} opened={opened} onClose={() => setOpened(null)} />
    </div>
  );
}
