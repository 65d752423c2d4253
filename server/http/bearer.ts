/**
 * The Authorization header, read as GoTrue reads it (`^[Bb]earer (\S+)$`): exactly one space after the
 * scheme and a token without whitespace. Whitespace around the token, two spaces, another scheme or an
 * empty token is malformed and refused by every service, never trimmed into a valid one.
 */
export type BearerHeader = { kind: 'absent' } | { kind: 'malformed' } | { kind: 'bearer'; token: string };

const BEARER = /^[Bb]earer ([^\s]+)$/;

export function parseAuthorization(header: string | null | undefined): BearerHeader {
  if (header === undefined || header === null) {
    return { kind: 'absent' };
  }
  const token = BEARER.exec(header)?.[1];
  return token === undefined ? { kind: 'malformed' } : { kind: 'bearer', token };
}
