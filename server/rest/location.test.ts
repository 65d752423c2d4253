import { describe, expect, it } from 'vitest';
import { canonicalQuery, contentLocation } from './location.ts';

// PostgREST's qsCanonical: http-types' parseQueryReplacePlus, a stable sort by name, then the HTTP
// package's urlEncodeVars (QuerySpec "Canonical location": /no_pk?b=eq.1&a=eq.1 → /no_pk?a=eq.1&b=eq.1).
describe('canonical query', () => {
  it('sorts by name, stably, and joins a repeated name with commas', () => {
    expect(canonicalQuery('?b=eq.1&a=eq.1')).toBe('a=eq.1&b=eq.1');
    expect(canonicalQuery('a=lt.5&b=1&a=gt.1')).toBe('a=lt.5,gt.1&b=1');
  });

  it('splits on & and ;, keeps empty names, drops nothing but a trailing separator', () => {
    expect(canonicalQuery('a=1;b=2')).toBe('a=1&b=2');
    expect(canonicalQuery('&')).toBe('=');
    expect(canonicalQuery('a=1&')).toBe('a=1');
    expect(canonicalQuery('flag')).toBe('flag=');
    expect(canonicalQuery('')).toBe('');
  });

  it('decodes + and %XX (a bad escape stays literal) and encodes all but letters, digits and -_.~', () => {
    expect(canonicalQuery('q=a+b%2Bc')).toBe('q=a%20b%2Bc');
    expect(canonicalQuery('q=%zz%4')).toBe('q=%25zz%254');
    expect(canonicalQuery('select=id,name&x=A-z_0.9~')).toBe('select=id%2Cname&x=A-z_0.9~');
  });

  it('encodes each byte of a non-ASCII character as UTF-8 again, as PostgREST does', () => {
    expect(canonicalQuery('n=%C3%A9')).toBe('n=%C3%83%C2%A9');
    expect(canonicalQuery('n=é')).toBe('n=%C3%83%C2%A9');
  });

  it('prefixes the relation, with ? only when there are parameters', () => {
    expect(contentLocation('simple_pk', '')).toBe('/simple_pk');
    expect(contentLocation('no_pk', '?b=eq.1&a=eq.1')).toBe('/no_pk?a=eq.1&b=eq.1');
  });
});
