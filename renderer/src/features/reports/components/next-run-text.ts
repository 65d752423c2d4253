// The "next scheduled run" line of a configuration, in the configuration's own time zone.
import type { ReportConfiguration } from '../api/get-report-configurations.ts';

export function nextRunText(
  config: Pick<
    ReportConfiguration,
    'is_enabled' | 'next_run_at' | 'last_run_at' | 'schedule_type' | 'time_zone'
  >,
): string {
  if (!config.is_enabled) {
    return 'Paused';
  }
  if (config.next_run_at) {
    const when = new Date(config.next_run_at).toLocaleString(undefined, {
      timeZone: config.time_zone,
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    return `Next run: ${when} (${config.time_zone})`;
  }
  if (config.schedule_type === 'one_time' && config.last_run_at) {
    return 'Ran once';
  }
  return 'First run within a minute';
}
