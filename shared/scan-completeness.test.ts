import { describe, expect, it } from 'vitest';

import { completenessNote } from './scan-completeness.ts';

describe('completenessNote', () => {
  it('says why a scan was cut short and which parts did not finish', () => {
    expect(
      completenessNote({
        partial: true,
        stopped: { reason: 'deadline', detail: 'the scan reached its time limit of 20 min' },
        phase_errors: [{ phase: 'crawl', error: 'phase "crawl" reached its time limit of 10 min' }],
      }),
    ).toEqual({
      text: 'Partial: time limit reached',
      details: [
        'the scan reached its time limit of 20 min',
        'crawl: phase "crawl" reached its time limit of 10 min',
      ],
    });
    expect(
      completenessNote({
        partial: true,
        phase_errors: [
          { phase: 'transport', error: 'http://x/ could not be read: HPE_INVALID_CONSTANT' },
          { phase: 'injection', error: '3 parameter(s) left unprobed' },
        ],
      }),
    ).toEqual({
      text: 'Partial: 2 parts did not finish',
      details: [
        'transport: http://x/ could not be read: HPE_INVALID_CONSTANT',
        'injection: 3 parameter(s) left unprobed',
      ],
    });
    expect(
      completenessNote({ partial: true, stopped: { reason: 'memory', detail: 'over 2048 MB' } })?.text,
    ).toBe('Partial: memory cap reached');
  });

  it('says nothing for a complete scan or an odd shape', () => {
    for (const value of [null, {}, { partial: false }, [], 'x', { partial: 'yes' }]) {
      expect(completenessNote(value)).toBeNull();
    }
    // Older scans recorded only the flag.
    expect(completenessNote({ partial: true })).toEqual({ text: 'Partial result', details: [] });
    // Entries of the wrong shape are left out, not shown as "undefined".
    expect(completenessNote({ partial: true, phase_errors: [{ phase: 1 }, 'x', null] })).toEqual({
      text: 'Partial result',
      details: [],
    });
  });
});
