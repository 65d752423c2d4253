import { describe, expect, it } from 'vitest';
import { FilterError, parseFilter, rowMatches } from './filters.ts';

const cols = [
  { name: 'id', type: 'int8' },
  { name: 'title', type: 'text' },
  { name: 'done', type: 'bool' },
  { name: 'at', type: 'timestamptz' },
];
const row = { id: 5, title: 'a, b', done: false, at: '2025-01-01T00:00:00+00:00' };
const m = (f: string) => rowMatches(parseFilter(f), row, cols);

describe('postgres_changes filters', () => {
  it('compares by column type, ANDs comma-joined conditions and negates with not.', () => {
    expect(m('id=eq.5')).toBe(true);
    expect(m('id=gt.10')).toBe(false);
    expect(m('id=gte.5,done=eq.false')).toBe(true);
    expect(m('id=gte.5,done=eq.true')).toBe(false);
    expect(m('id=not.eq.5')).toBe(false);
    expect(m('at=lt.2025-06-01T00:00:00Z')).toBe(true);
    expect(m('title=in.("a, b",c)')).toBe(true);
    expect(m('id=in.(1,2,"a,b")')).toBe(false);
    expect(m('title=ilike.A*')).toBe(true);
    expect(m('title=is.null')).toBe(false);
    expect(m('title=eq."a, b"')).toBe(true);
  });

  it('treats NULL like SQL: no comparison matches, even negated', () => {
    const r = { id: null };
    expect(rowMatches(parseFilter('id=eq.1'), r, cols)).toBe(false);
    expect(rowMatches(parseFilter('id=not.eq.1'), r, cols)).toBe(false);
    expect(rowMatches(parseFilter('id=is.null'), r, cols)).toBe(true);
    expect(rowMatches(parseFilter('id=isdistinct.1'), r, cols)).toBe(true);
  });

  it('refuses malformed and dangerous filters', () => {
    for (const bad of [
      'id',
      'id=between.1',
      'id=in.1,2',
      'title=eq."open',
      'title=match.(a+)+$',
      'title=like.%a%b%c%d%',
      'x=is.maybe',
    ]) {
      expect(() => parseFilter(bad), bad).toThrow(FilterError);
    }
    expect(() => parseFilter(`id=in.(${Array.from({ length: 101 }, (_, i) => i).join(',')})`)).toThrow(
      FilterError,
    );
  });
});
