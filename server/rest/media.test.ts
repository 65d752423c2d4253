import { describe, expect, it } from 'vitest';
import { RestError } from './errors.ts';
import { negotiate, parseAccept } from './media.ts';

// PostgREST 12/13's QuerySpec "Accept headers" and MediaType.hs: quality first, then the more specific
// type, ties in header order; `*/*` rescues an unknown type; 406 PGRST107 names every type asked for.
const refused = (accept: string, planEnabled = false) => {
  try {
    negotiate(accept, planEnabled);
  } catch (e) {
    return e instanceof RestError ? `${e.status} ${e.code} ${e.message}` : 'not a RestError';
  }
  return 'accepted';
};

describe('Accept negotiation', () => {
  it('orders by quality and specificity as wai-extra parseHttpAccept does', () => {
    expect(parseAccept('text/csv;q=0.5, application/json')).toEqual(['application/json', 'text/csv']);
    expect(parseAccept('*/*, text/csv')).toEqual(['text/csv', '*/*']);
    expect(parseAccept('text/csv, application/json')).toEqual(['text/csv', 'application/json']);
    expect(negotiate('text/unknowntype, */*', false).media).toBe('json');
    expect(negotiate('text/csv; version=1', false).media).toBe('csv');
    expect(negotiate(undefined, false).media).toBe('json');
  });

  it('reads the vendored types and their nulls=stripped', () => {
    expect(negotiate('application/vnd.pgrst.object', false)).toMatchObject({
      media: 'object',
      stripNulls: false,
    });
    expect(negotiate('application/vnd.pgrst.object+json;nulls=stripped', false)).toMatchObject({
      media: 'object',
      stripNulls: true,
    });
    expect(negotiate('application/vnd.pgrst.array+json;nulls=stripped', false).stripNulls).toBe(true);
    expect(negotiate('application/vnd.pgrst.array', false)).toMatchObject({
      media: 'json',
      stripNulls: false,
    });
  });

  it('reads a plan request as postgrest-js sends it, only when enabled', () => {
    const sent = 'application/vnd.pgrst.plan+json; for="text/csv"; options=verbose|analyze;';
    expect(negotiate(sent, true)).toEqual({
      media: 'csv',
      stripNulls: false,
      plan: {
        format: 'json',
        options: ['analyze', 'verbose'],
        contentType:
          'application/vnd.pgrst.plan+json; for="text/csv"; options=analyze|verbose; charset=utf-8',
      },
    });
    expect(negotiate('application/vnd.pgrst.plan; options=;', true).plan?.contentType).toBe(
      'application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8',
    );
    expect(refused(sent)).toBe(
      '406 PGRST107 None of these media types are available: application/vnd.pgrst.plan+json; for="text/csv"; options=analyze|verbose',
    );
    expect(refused('application/vnd.pgrst.plan; for="text/xml"', true)).toBe(
      '406 PGRST107 None of these media types are available: application/vnd.pgrst.plan+text; for="text/xml"',
    );
  });

  it('names unknown types as sent, known ones by their canonical name', () => {
    expect(refused('text/unknowntype')).toBe(
      '406 PGRST107 None of these media types are available: text/unknowntype',
    );
    expect(refused('text/html; charset=utf-8, text/plain;q=0.2')).toBe(
      '406 PGRST107 None of these media types are available: text/html;charset=utf-8, text/plain',
    );
  });
});
