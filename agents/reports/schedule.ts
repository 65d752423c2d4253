// When a report configuration runs. Runs fall on slots anchored at the configuration's creation, in its
// own time zone: slot k is the anchor plus k days / weeks / months of local wall-clock time, so a daily
// 09:00 report stays at 09:00 across DST changes, and a monthly report created on the 31st runs on the
// last day of shorter months (date-fns clamps) and on the 31st again when the month has one. Each slot's
// report covers the period since the previous slot. A one-time configuration has a single slot.
import { TZDate } from '@date-fns/tz';
import { addDays, addMonths, addWeeks } from 'date-fns';

export type ScheduleType = 'one_time' | 'daily' | 'weekly' | 'monthly';

export interface ScheduleInput {
  schedule_type: ScheduleType;
  time_zone: string;
  /** The anchor: the configuration's creation. */
  created_at: string;
  last_run_at: string | null;
}

export interface Slot {
  at: Date;
  periodStart: Date;
  periodEnd: Date;
}

export interface SchedulePlan {
  /** The slot to generate now, if it has come and has not been generated. */
  due: Slot | null;
  /** The next slot after now (null for a one-time configuration that has run or is running now). */
  next: Date | null;
}

const ONE_TIME_PERIOD_DAYS = 30;
const APPROX_MS: Record<Exclude<ScheduleType, 'one_time'>, number> = {
  daily: 86_400_000,
  weekly: 7 * 86_400_000,
  monthly: 30.44 * 86_400_000,
};
const STEP = { daily: addDays, weekly: addWeeks, monthly: addMonths } as const;

/** Slot k of a recurring schedule (k may be negative: slot -1 starts the first period). */
export function slotAt(
  type: Exclude<ScheduleType, 'one_time'>,
  anchor: Date,
  timeZone: string,
  k: number,
): Date {
  return new Date(STEP[type](new TZDate(anchor.getTime(), timeZone), k).getTime());
}

function slot(type: ScheduleType, anchor: Date, timeZone: string, k: number): Slot {
  if (type === 'one_time') {
    return {
      at: anchor,
      periodStart: new Date(addDays(new TZDate(anchor.getTime(), timeZone), -ONE_TIME_PERIOD_DAYS).getTime()),
      periodEnd: anchor,
    };
  }
  const at = slotAt(type, anchor, timeZone, k);
  return { at, periodStart: slotAt(type, anchor, timeZone, k - 1), periodEnd: at };
}

/** The index of the last slot at or before `now` (-1 when the anchor is still ahead). */
export function lastSlotIndex(
  type: Exclude<ScheduleType, 'one_time'>,
  anchor: Date,
  timeZone: string,
  now: Date,
): number {
  if (now.getTime() < anchor.getTime()) {
    return -1;
  }
  let k = Math.floor((now.getTime() - anchor.getTime()) / APPROX_MS[type]);
  while (slotAt(type, anchor, timeZone, k + 1).getTime() <= now.getTime()) {
    k++;
  }
  while (k > 0 && slotAt(type, anchor, timeZone, k).getTime() > now.getTime()) {
    k--;
  }
  return k;
}

export function planSchedule(config: ScheduleInput, now: Date): SchedulePlan {
  const anchor = new Date(config.created_at);
  const lastRun = config.last_run_at ? new Date(config.last_run_at).getTime() : null;
  const type = config.schedule_type;
  if (type === 'one_time') {
    const ran = lastRun !== null;
    const due = !ran && anchor.getTime() <= now.getTime() ? slot(type, anchor, config.time_zone, 0) : null;
    return { due, next: ran || due ? null : anchor };
  }
  const k = lastSlotIndex(type, anchor, config.time_zone, now);
  const current = k >= 0 ? slot(type, anchor, config.time_zone, k) : null;
  // Guard: a slot already generated (last_run_at at or past it) is never generated again.
  const due = current && (lastRun === null || lastRun < current.at.getTime()) ? current : null;
  return { due, next: slotAt(type, anchor, config.time_zone, k + 1) };
}

/** The idempotency key of one slot's report job: any number of schedulers enqueue it once. */
export const slotKey = (configurationId: string, at: Date) => `report:${configurationId}:${at.toISOString()}`;
