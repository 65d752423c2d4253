import { describe, expect, it } from 'vitest';
import { lastSlotIndex, planSchedule, slotAt, slotKey } from './schedule.ts';

const config = (
  schedule_type: 'one_time' | 'daily' | 'weekly' | 'monthly',
  created_at: string,
  time_zone = 'UTC',
  last_run_at: string | null = null,
) => ({
  schedule_type,
  created_at,
  time_zone,
  last_run_at,
});

describe('report schedules', () => {
  it('runs a monthly report created on the 31st on the last day of shorter months and the 31st again after', () => {
    const anchor = new Date('2026-01-31T09:00:00Z');
    const slots = [1, 2, 3, 4].map((k) => slotAt('monthly', anchor, 'UTC', k).toISOString());
    expect(slots).toEqual([
      '2026-02-28T09:00:00.000Z',
      '2026-03-31T09:00:00.000Z',
      '2026-04-30T09:00:00.000Z',
      '2026-05-31T09:00:00.000Z',
    ]);
    // Leap year February.
    expect(slotAt('monthly', new Date('2028-01-31T09:00:00Z'), 'UTC', 1).toISOString()).toBe(
      '2028-02-29T09:00:00.000Z',
    );
  });

  it('keeps the local wall-clock time of a daily report across a DST change', () => {
    // 09:00 in New York on 7 March 2026 (EST, UTC-5); DST starts on 8 March (EDT, UTC-4).
    const anchor = new Date('2026-03-07T14:00:00Z');
    expect(slotAt('daily', anchor, 'America/New_York', 1).toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(slotAt('daily', anchor, 'UTC', 1).toISOString()).toBe('2026-03-08T14:00:00.000Z');
    // Europe/Berlin autumn change: 25 October 2026, 09:00 CEST (UTC+2) -> 09:00 CET (UTC+1).
    expect(slotAt('weekly', new Date('2026-10-18T07:00:00Z'), 'Europe/Berlin', 1).toISOString()).toBe(
      '2026-10-25T08:00:00.000Z',
    );
  });

  it('clamps monthly slots to the month end in the configuration time zone, not in UTC', () => {
    // 31 January 23:30 in Tokyo is 31 January 14:30 UTC; the next slot is 28 February 23:30 Tokyo.
    const anchor = new Date('2026-01-31T14:30:00Z');
    expect(slotAt('monthly', anchor, 'Asia/Tokyo', 1).toISOString()).toBe('2026-02-28T14:30:00.000Z');
    // 1 February 00:30 in Tokyo is still 31 January in UTC: in Tokyo it is the 1st, so the next is 1 March 00:30 Tokyo.
    const first = new Date('2026-01-31T15:30:00Z');
    expect(slotAt('monthly', first, 'Asia/Tokyo', 1).toISOString()).toBe('2026-02-28T15:30:00.000Z');
  });

  it('makes a new daily configuration due at once, then not again until the next slot', () => {
    const created = '2026-05-10T08:00:00.000Z';
    const first = planSchedule(config('daily', created), new Date('2026-05-10T08:00:30Z'));
    expect(first.due?.at.toISOString()).toBe(created);
    expect(first.due?.periodStart.toISOString()).toBe('2026-05-09T08:00:00.000Z');
    expect(first.next?.toISOString()).toBe('2026-05-11T08:00:00.000Z');
    const after = planSchedule(config('daily', created, 'UTC', created), new Date('2026-05-10T20:00:00Z'));
    expect(after.due).toBeNull();
    const nextDay = planSchedule(config('daily', created, 'UTC', created), new Date('2026-05-11T08:00:01Z'));
    expect(nextDay.due?.at.toISOString()).toBe('2026-05-11T08:00:00.000Z');
    expect(nextDay.due?.periodStart.toISOString()).toBe(created);
  });

  it('catches up with only the latest missed slot after downtime', () => {
    const plan = planSchedule(
      config('weekly', '2026-01-05T06:00:00Z', 'UTC', '2026-01-05T06:00:00Z'),
      new Date('2026-02-20T00:00:00Z'),
    );
    expect(plan.due?.at.toISOString()).toBe('2026-02-16T06:00:00.000Z');
    expect(plan.next?.toISOString()).toBe('2026-02-23T06:00:00.000Z');
  });

  it('runs a one-time configuration exactly once over the previous 30 days', () => {
    const created = '2026-03-01T00:00:00Z';
    const first = planSchedule(config('one_time', created), new Date('2026-03-01T00:01:00Z'));
    expect(first.due?.periodStart.toISOString()).toBe('2026-01-30T00:00:00.000Z');
    expect(first.next).toBeNull();
    expect(
      planSchedule(config('one_time', created, 'UTC', created), new Date('2026-04-01T00:00:00Z')),
    ).toEqual({ due: null, next: null });
  });

  it('finds the last slot index exactly at slot boundaries', () => {
    const anchor = new Date('2026-01-31T09:00:00Z');
    expect(lastSlotIndex('monthly', anchor, 'UTC', new Date('2026-02-28T08:59:59Z'))).toBe(0);
    expect(lastSlotIndex('monthly', anchor, 'UTC', new Date('2026-02-28T09:00:00Z'))).toBe(1);
    expect(lastSlotIndex('monthly', anchor, 'UTC', new Date('2026-01-01T00:00:00Z'))).toBe(-1);
    expect(lastSlotIndex('monthly', anchor, 'UTC', new Date('2036-01-31T09:00:00Z'))).toBe(120);
  });

  it('keys each slot by configuration and instant', () => {
    expect(slotKey('c1', new Date('2026-01-01T00:00:00Z'))).toBe('report:c1:2026-01-01T00:00:00.000Z');
  });
});
