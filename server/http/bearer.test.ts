import { describe, expect, it } from 'vitest';

import { parseAuthorization } from './bearer.ts';

describe('parseAuthorization', () => {
  it('reads `Bearer <token>` and GoTrue’s lower-case scheme', () => {
    expect(parseAuthorization('Bearer a.b.c')).toEqual({ kind: 'bearer', token: 'a.b.c' });
    expect(parseAuthorization('bearer a.b.c')).toEqual({ kind: 'bearer', token: 'a.b.c' });
  });

  it('has no token without the header', () => {
    expect(parseAuthorization(undefined)).toEqual({ kind: 'absent' });
    expect(parseAuthorization(null)).toEqual({ kind: 'absent' });
  });

  it.each([
    '',
    'Bearer',
    'Bearer ',
    'Bearer  a.b.c',
    ' Bearer a.b.c',
    'Bearer a.b.c ',
    'Bearer\ta.b.c',
    'Bearer a.b.c\n',
    'Bearer a.b c',
    'BEARER a.b.c',
    'Basic dXNlcjpwYXNz',
    'Token a.b.c',
  ])('refuses %j as malformed', (header) => {
    expect(parseAuthorization(header)).toEqual({ kind: 'malformed' });
  });
});
