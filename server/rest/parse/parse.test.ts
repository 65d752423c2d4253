import { describe, expect, it } from 'vitest';
import { RestError } from '../errors.ts';
import { parsePrefer } from '../prefer.ts';
import { parseFilterParam, parseLogicParam, splitTopLevel } from './filter.ts';
import { parseQuery } from './query.ts';
import { parseSelect } from './select.ts';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof RestError ? e.code : 'not a RestError';
  }
  return 'no error';
};

describe('select grammar', () => {
  it('parses columns, aliases, casts, JSON paths, embeds with hints and spreads', () => {
    expect(parseSelect('a:data->x->>"y z", id::text')).toEqual([
      {
        kind: 'column',
        field: {
          name: 'data',
          path: [
            { arrow: '->', key: 'x' },
            { arrow: '->>', key: 'y z' },
          ],
        },
        alias: 'a',
        cast: null,
      },
      { kind: 'column', field: { name: 'id', path: [] }, alias: null, cast: 'text' },
    ]);
    expect(parseSelect('*, owner:users!fk_owner!inner(id), ...settings(theme)')).toEqual([
      { kind: 'star' },
      {
        kind: 'embed',
        relation: 'users',
        alias: 'owner',
        hint: 'fk_owner',
        join: 'inner',
        spread: false,
        select: [{ kind: 'column', field: { name: 'id', path: [] }, alias: null, cast: null }],
      },
      {
        kind: 'embed',
        relation: 'settings',
        alias: null,
        hint: null,
        join: 'left',
        spread: true,
        select: [{ kind: 'column', field: { name: 'theme', path: [] }, alias: null, cast: null }],
      },
    ]);
  });

  it('parses aggregates with their casts and aliases', () => {
    expect(parseSelect('n:count()::text, total:data->>x::int.sum()::text')).toEqual([
      {
        kind: 'column',
        field: { name: '*', path: [] },
        alias: 'n',
        cast: null,
        aggregate: 'count',
        aggregateCast: 'text',
      },
      {
        kind: 'column',
        field: { name: 'data', path: [{ arrow: '->>', key: 'x' }] },
        alias: 'total',
        cast: 'int',
        aggregate: 'sum',
        aggregateCast: 'text',
      },
    ]);
  });

  it('refuses malformed selects with PostgREST codes', () => {
    expect(code(() => parseSelect('a,(b'))).toBe('PGRST100');
    expect(code(() => parseSelect('rel(a'))).toBe('PGRST100');
    expect(code(() => parseSelect('"unterminated'))).toBe('PGRST100');
    expect(code(() => parseSelect('x.nope()'))).toBe('PGRST100');
    expect(code(() => parseSelect(`${'r('.repeat(30)}a${')'.repeat(30)}`))).toBe('PGRST100');
  });
});

describe('filters', () => {
  it('parses operators, negation, quantifiers, lists and text-search configs', () => {
    expect(parseFilterParam('a', 'not.in.(1,"b,c")')).toMatchObject({
      op: 'in',
      negate: true,
      value: ['1', 'b,c'],
    });
    expect(parseFilterParam('a', 'like(any).{x*,y*}')).toMatchObject({
      op: 'like',
      quantifier: 'any',
      value: ['x*', 'y*'],
    });
    expect(parseFilterParam('body', 'wfts(english).fat & cat')).toMatchObject({
      op: 'wfts',
      config: 'english',
      value: 'fat & cat',
    });
    expect(parseFilterParam('data->>k', 'eq.v')).toMatchObject({
      field: { name: 'data', path: [{ arrow: '->>', key: 'k' }] },
    });
  });

  it('parses nested logic trees with quoted values', () => {
    const tree = parseLogicParam('or', false, '(a.eq.1,and(b.gt.2,c.not.is.null),d.eq."x,y")');
    expect(tree.children).toHaveLength(3);
    expect(tree.children[1]).toMatchObject({ kind: 'logic', op: 'and' });
    expect(tree.children[2]).toMatchObject({ value: 'x,y' });
    expect(splitTopLevel('a,(b,c),"d,e"')).toEqual(['a', '(b,c)', '"d,e"']);
  });

  it('refuses unknown operators and unbalanced trees', () => {
    expect(code(() => parseFilterParam('a', 'zz.1'))).toBe('PGRST100');
    expect(code(() => parseFilterParam('a', 'is.maybe'))).toBe('PGRST100');
    expect(code(() => parseFilterParam('a', 'eq(any).1'))).toBe('PGRST100');
    expect(code(() => parseLogicParam('or', false, '(a.eq.1'))).toBe('PGRST100');
  });
});

describe('query parameters', () => {
  it('routes embedded options to their resource and leaves RPC arguments alone', () => {
    const q = parseQuery(
      new URLSearchParams('select=*,r(*)&r.order=a.desc.nullslast&r.limit=2&x=eq.1&n=5&not.or=(a.eq.1)'),
      true,
    );
    expect(q.nodes.get('r')).toMatchObject({ order: [{ direction: 'desc', nulls: 'last' }], limit: 2 });
    expect(q.nodes.get('')?.filters).toHaveLength(2);
    expect(q.rest).toEqual([['n', '5']]);
    expect(code(() => parseQuery(new URLSearchParams('limit=1;drop')))).toBe('PGRST100');
  });
});

describe('Prefer', () => {
  it('splits comma-joined preferences and is strict only when asked', () => {
    expect(parsePrefer('count=exact, missing=default, return=representation')).toMatchObject({
      count: 'exact',
      missing: 'default',
      return: 'representation',
    });
    expect(parsePrefer('return=bogus').return).toBeNull();
    expect(code(() => parsePrefer('handling=strict, return=bogus'))).toBe('PGRST122');
    expect(parsePrefer('handling=strict,max-affected=3').maxAffected).toBe(3);
  });
});
