// The Report Configuration tab: configurations newest first, each with its is_enabled toggle (saved at
// once), its next scheduled run and a Generate now action; New Configuration opens the form.
import { useState } from 'react';

import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { useGenerateReport } from '../api/generate-report.ts';
import { useReportConfigurations, type ReportConfiguration } from '../api/get-report-configurations.ts';
import { useSetConfigurationEnabled } from '../api/save-report-configuration.ts';
import { agentRequiredToast, REPORT_TOASTS } from '../messages.ts';
import { REPORT_TYPE_LABELS, SCHEDULE_LABELS } from '../schema.ts';
import { NewConfigurationForm } from './new-configuration-form.tsx';
import { nextRunText } from './next-run-text.ts';

function ConfigurationRow({ config }: { config: ReportConfiguration }) {
  const toggle = useSetConfigurationEnabled();
  const generate = useGenerateReport();
  return (
    <li
      data-testid="report-configuration"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-4"
    >
      <div className="min-w-0">
        <p className="font-medium">{config.name}</p>
        {config.description ? <p className="text-sm text-muted-foreground">{config.description}</p> : null}
        <p className="text-sm text-muted-foreground">
          {REPORT_TYPE_LABELS[config.report_type]} · {SCHEDULE_LABELS[config.schedule_type]} ·{' '}
          {nextRunText(config)}
        </p>
      </div>
      <div className="flex items-center gap-3">
        <Button
          size="sm"
          variant="outline"
          disabled={generate.isPending}
          onClick={() =>
            generate.mutate(config.id, {
              onSuccess: () => toast(REPORT_TOASTS.generateStarted),
              onError: (error) =>
                toast(
                  (error as { code?: string }).code === 'PT402'
                    ? agentRequiredToast(error.message)
                    : REPORT_TOASTS.generateFailed,
                ),
            })
          }
        >
          Generate now
        </Button>
        <Switch
          aria-label={`Enable ${config.name}`}
          checked={toggle.isPending ? (toggle.variables?.isEnabled ?? config.is_enabled) : config.is_enabled}
          onCheckedChange={(isEnabled) =>
            toggle.mutate({ id: config.id, isEnabled }, { onError: () => toast(REPORT_TOASTS.toggleFailed) })
          }
        />
      </div>
    </li>
  );
}

export function ReportConfigurationsList({ userId }: { userId: string }) {
  const [formOpen, setFormOpen] = useState(false);
  const { data, isPending, isError } = useReportConfigurations(userId);
  return (
    <div className="space-y-4">
      {formOpen ? (
        <NewConfigurationForm onClose={() => setFormOpen(false)} />
      ) : (
        <Button onClick={() => setFormOpen(true)}>New Configuration</Button>
      )}
      {isPending ? <Spinner /> : null}
      {isError ? <p className="text-destructive">The configurations could not be loaded.</p> : null}
      {data && !data.length ? (
        <Card>
          <CardContent className="py-8 text-center text-sm text-muted-foreground">
            No configurations yet. Choose New Configuration to schedule your first report.
          </CardContent>
        </Card>
      ) : null}
      {data?.length ? (
        <ul className="space-y-3" aria-label="Report configurations">
          {data.map((config) => (
            <ConfigurationRow key={config.id} config={config} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
