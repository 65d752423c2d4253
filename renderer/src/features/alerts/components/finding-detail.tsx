import { Badge } from '../../../components/ui/badge.tsx';
import type { Finding } from '../api/get-findings.ts';
import { severityBadge, triageLabels } from '../lib/format.ts';
import { TriageControls } from './triage-controls.tsx';

/** One finding with its evidence, remediation and triage. */
export function FindingDetail({ finding }: { finding: Finding }) {
  return (
    <article className="space-y-3 rounded-lg border p-4" aria-label={finding.title}>
      <header className="space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant={severityBadge(finding.severity)} className="capitalize">
            {finding.severity}
          </Badge>
          <Badge variant="outline">{triageLabels[finding.status] ?? finding.status}</Badge>
          {finding.regression ? <Badge variant="destructive">Regression</Badge> : null}
        </div>
        <h3 className="font-semibold">{finding.title}</h3>
        <p className="text-xs break-all text-muted-foreground">
          {finding.location}
          {finding.cwe ? ` · ${finding.cwe}` : ''}
          {finding.cvss_score !== null ? ` · CVSS ${finding.cvss_score}` : ''}
          {finding.status === 'accepted_risk' && finding.accepted_until
            ? ` · accepted until ${new Date(finding.accepted_until).toLocaleDateString()}`
            : ''}
        </p>
      </header>
      <section>
        <h4 className="text-sm font-medium">Evidence</h4>
        <pre className="mt-1 max-h-48 overflow-auto rounded bg-muted p-2 text-xs whitespace-pre-wrap">
          {finding.evidence || 'No evidence recorded.'}
        </pre>
      </section>
      <section>
        <h4 className="text-sm font-medium">Remediation</h4>
        <p className="mt-1 text-sm whitespace-pre-wrap">
          {finding.remediation || 'No remediation recorded.'}
        </p>
      </section>
      <TriageControls finding={finding} />
    </article>
  );
}
