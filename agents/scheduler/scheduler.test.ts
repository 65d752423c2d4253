import { describe, expect, it } from 'vitest';
import { slotKey, slotStart } from './scheduler.ts';

describe('schedule slots', () => {
  const anchor = new Date('2026-01-01T10:00:00Z');
  it('starts the first slot at the anchor and moves every period', () => {
    expect(slotStart(anchor, new Date('2026-01-01T10:00:00Z')).toISOString()).toBe(
      '2026-01-01T10:00:00.000Z',
    );
    expect(slotStart(anchor, new Date('2026-01-02T09:59:59Z')).toISOString()).toBe(
      '2026-01-01T10:00:00.000Z',
    );
    expect(slotStart(anchor, new Date('2026-01-02T10:00:00Z')).toISOString()).toBe(
      '2026-01-02T10:00:00.000Z',
    );
  });
  it('never starts before the anchor', () => {
    expect(slotStart(anchor, new Date('2025-12-31T00:00:00Z')).toISOString()).toBe(anchor.toISOString());
  });
  it('keys a slot by user, tool and start', () => {
    expect(slotKey('u', 'webapp', anchor)).toBe('scan:u:webapp:2026-01-01T10:00:00.000Z');
  });
});
