import { describe, expect, it } from 'vitest';

import {
  actionFailedToast,
  actionSucceededToast,
  toolActionCompletedToast,
  toolActionFailedToast,
} from './action-toasts.ts';
import { completionToast, formatEta, isActive, parseProgress, severityVariant } from './scan-status.ts';

describe('completionToast', () => {
  it('toasts only on a transition from running to completed', () => {
    expect(
      completionToast(
        'in_progress',
        { status: 'completed', severity_level: 'medium' },
        'Web Application Scanner',
      ),
    ).toEqual({
      title: 'Scan Completed',
      description: 'Web Application Scanner finished. Severity level: Medium.',
      variant: 'default',
    });
    expect(completionToast('queued', { status: 'completed', severity_level: 'none' }, 'X')?.title).toBe(
      'Scan Completed',
    );
  });
  it('stays silent on a first load, a repeat, or another end state', () => {
    expect(completionToast(null, { status: 'completed', severity_level: 'high' }, 'X')).toBeNull();
    expect(completionToast('completed', { status: 'completed', severity_level: 'high' }, 'X')).toBeNull();
    expect(completionToast('in_progress', { status: 'in_progress', severity_level: 'none' }, 'X')).toBeNull();
    expect(completionToast('in_progress', { status: 'stopped', severity_level: 'high' }, 'X')).toBeNull();
    expect(completionToast('in_progress', { status: 'failed', severity_level: 'none' }, 'X')).toBeNull();
  });
  it('is destructive when critical or high', () => {
    expect(
      completionToast('in_progress', { status: 'completed', severity_level: 'critical' }, 'X')?.variant,
    ).toBe('destructive');
    expect(
      completionToast('in_progress', { status: 'completed', severity_level: 'high' }, 'X')?.description,
    ).toContain('Severity level: High');
  });
});

describe('severityVariant', () => {
  it('maps critical and high to destructive and the rest to default', () => {
    expect(
      ['critical', 'high', 'medium', 'low', 'info', 'none', null, undefined].map((s) =>
        severityVariant(s as never),
      ),
    ).toEqual([
      'destructive',
      'destructive',
      'default',
      'default',
      'default',
      'default',
      'default',
      'default',
    ]);
  });
});

describe('isActive', () => {
  it('counts queued and in_progress as active', () => {
    expect(
      ['queued', 'in_progress', 'completed', 'failed', 'stopped', null].map((s) => isActive(s as never)),
    ).toEqual([true, true, false, false, false, false]);
  });
});

describe('formatEta', () => {
  it('formats seconds, minutes and hours', () => {
    expect(formatEta(0)).toBe('0s');
    expect(formatEta(42)).toBe('42s');
    expect(formatEta(185)).toBe('3m 05s');
    expect(formatEta(3720)).toBe('1h 02m');
    expect(formatEta(59.6)).toBe('1m 00s');
  });
  it('shows a dash without a usable estimate', () => {
    expect(formatEta(null)).toBe('—');
    expect(formatEta(undefined)).toBe('—');
    expect(formatEta(-3)).toBe('—');
    expect(formatEta(Number.NaN)).toBe('—');
    expect(formatEta(Number.POSITIVE_INFINITY)).toBe('—');
  });
});

describe('parseProgress', () => {
  it('reads the worker progress', () => {
    expect(
      parseProgress({ phase: 'crawl', percent: 42.5, requestsPerSecond: 9, etaSeconds: 30, attempt: 1 }),
    ).toEqual({
      phase: 'crawl',
      percent: 42.5,
      requestsPerSecond: 9,
      etaSeconds: 30,
    });
  });
  it('tolerates empty, hostile or malformed progress', () => {
    expect(parseProgress({})).toEqual({
      phase: 'queued',
      percent: 0,
      requestsPerSecond: null,
      etaSeconds: null,
    });
    expect(parseProgress(null).percent).toBe(0);
    expect(parseProgress({ percent: 250 }).percent).toBe(100);
    expect(parseProgress({ percent: -5 }).percent).toBe(0);
    expect(parseProgress({ phase: 7, percent: '50' })).toEqual({
      phase: 'queued',
      percent: 0,
      requestsPerSecond: null,
      etaSeconds: null,
    });
  });
});

describe('scanner action toasts', () => {
  it('uses the catalogue titles', () => {
    expect(actionSucceededToast('initialize', 'ok').title).toBe('Scanner Initialized');
    expect(actionSucceededToast('start_scan', 'ok').title).toBe('Scan Started');
    expect(actionSucceededToast('stop_scan', 'ok').title).toBe('Scan Stopped');
    expect(actionFailedToast('initialize', 'x')).toEqual({
      title: 'Initialization Failed',
      description: 'x',
      variant: 'destructive',
    });
    expect(actionFailedToast('start_scan', 'x').title).toBe('Start Scan Failed');
    expect(actionFailedToast('stop_scan', 'x').title).toBe('Stop Scan Failed');
  });
});

describe('tool action toasts', () => {
  it('names the action and tool, and falls back to the generic failure text', () => {
    expect(toolActionCompletedToast('status', 'webapp')).toEqual({
      title: 'Tool Action Completed',
      description: 'Successfully performed status on webapp',
      variant: 'default',
    });
    expect(toolActionFailedToast('')).toEqual({
      title: 'Tool Action Failed',
      description: 'There was a problem executing the requested action. Please try again.',
      variant: 'destructive',
    });
    expect(toolActionFailedToast('nope').description).toBe('nope');
  });
});
