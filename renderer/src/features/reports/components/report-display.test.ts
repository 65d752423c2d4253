import { describe, expect, it } from 'vitest';

import { formatPath } from '../api/report-files.ts';
import { configurationDefaults, configurationSchema } from '../schema.ts';
import { nextRunText } from './next-run-text.ts';
import { statusClass } from './report-status-badge.tsx';

describe('reports page display rules', () => {
  it('colours statuses: completed green, generating yellow, failed red, anything else grey', () => {
    expect(statusClass('completed')).toContain('green');
    expect(statusClass('generating')).toContain('yellow');
    expect(statusClass('failed')).toContain('red');
    expect(statusClass('queued')).toContain('gray');
    expect(statusClass('')).toContain('gray');
  });

  it('shows the next run in the configuration time zone, or why there is none', () => {
    const base = {
      is_enabled: true,
      next_run_at: '2026-03-08T13:00:00Z',
      last_run_at: null,
      schedule_type: 'daily' as const,
      time_zone: 'America/New_York',
    };
    expect(nextRunText(base)).toMatch(/^Next run: .*9:00.*\(America\/New_York\)$/);
    expect(nextRunText({ ...base, is_enabled: false })).toBe('Paused');
    expect(
      nextRunText({
        ...base,
        next_run_at: null,
        schedule_type: 'one_time',
        last_run_at: '2026-03-01T00:00:00Z',
      }),
    ).toBe('Ran once');
    expect(nextRunText({ ...base, next_run_at: null })).toBe('First run within a minute');
  });

  it('defaults new configurations to soc_compliance, daily, enabled and requires a name within limits', () => {
    expect(configurationDefaults).toMatchObject({
      report_type: 'soc_compliance',
      schedule_type: 'daily',
      is_enabled: true,
    });
    expect(configurationSchema.safeParse(configurationDefaults).success).toBe(false);
    expect(configurationSchema.safeParse({ ...configurationDefaults, name: '   ' }).success).toBe(false);
    expect(configurationSchema.safeParse({ ...configurationDefaults, name: 'x'.repeat(201) }).success).toBe(
      false,
    );
    expect(configurationSchema.safeParse({ ...configurationDefaults, name: 'Board pack' }).success).toBe(
      true,
    );
    expect(
      configurationSchema.safeParse({ ...configurationDefaults, name: 'ok', report_type: 'everything' })
        .success,
    ).toBe(false);
  });

  it('derives the CSV and JSON paths from the PDF path', () => {
    expect(formatPath('u/r.pdf', 'csv')).toBe('u/r.csv');
    expect(formatPath('u/r.pdf', 'json')).toBe('u/r.json');
  });
});
