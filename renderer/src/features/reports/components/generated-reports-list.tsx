// The Generated Reports tab: one row per report, newest first, with its status and, when completed,
// downloads of the PDF and the CSV/JSON exports.
import { Download, FileText } from 'lucide-react';

import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { downloadReport, type ReportFormat } from '../api/download-report.ts';
import { useGeneratedReports, type GeneratedReport } from '../api/get-generated-reports.ts';
import { REPORT_TOASTS } from '../messages.ts';
import { REPORT_TYPE_LABELS } from '../schema.ts';
import { ReportStatusBadge } from './report-status-badge.tsx';

async function download(report: GeneratedReport, format: ReportFormat) {
  toast(REPORT_TOASTS.downloadStarted);
  try {
    await downloadReport(report, format);
  } catch {
    // Guard: a refused or expired signed URL ends in a toast, never an unhandled rejection.
    toast(REPORT_TOASTS.downloadFailed);
  }
}

export function GeneratedReportsList({ userId }: { userId: string }) {
  const { data, isPending, isError } = useGeneratedReports(userId);
  if (isPending) {
    return <Spinner />;
  }
  if (isError) {
    return <p className="text-destructive">The reports could not be loaded.</p>;
  }
  if (!data.length) {
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-2 py-10 text-center">
          <FileText className="size-10 text-muted-foreground" aria-hidden />
          <p className="font-medium">No reports yet</p>
          <p className="text-sm text-muted-foreground">
            Create a configuration under Report Configuration, then choose Generate now or wait for its
            schedule.
          </p>
        </CardContent>
      </Card>
    );
  }
  return (
    <ul className="space-y-3" aria-label="Generated reports">
      {data.map((report) => (
        <li
          key={report.id}
          data-testid="generated-report"
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-4"
        >
          <div className="min-w-0">
            <p className="font-medium">
              {report.report_configurations?.name ?? REPORT_TYPE_LABELS[report.report_type]}
            </p>
            <p className="text-sm text-muted-foreground">
              {REPORT_TYPE_LABELS[report.report_type]} · {new Date(report.generated_at).toLocaleString()}
            </p>
            {report.status === 'failed' && report.failure_reason ? (
              <p className="text-sm text-destructive">{report.failure_reason}</p>
            ) : null}
          </div>
          <div className="flex items-center gap-2">
            <ReportStatusBadge status={report.status} />
            {report.status === 'completed' ? (
              <>
                <Button size="sm" onClick={() => void download(report, 'pdf')}>
                  <Download className="mr-1 size-4" aria-hidden />
                  Download
                </Button>
                <Button size="sm" variant="outline" onClick={() => void download(report, 'csv')}>
                  CSV
                </Button>
                <Button size="sm" variant="outline" onClick={() => void download(report, 'json')}>
                  JSON
                </Button>
              </>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
