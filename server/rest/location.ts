/**
 * PostgREST's `Content-Location` of a read: `/<table>` and, when the query string has parameters, `?` and
 * its canonical form (QueryParams.qsCanonical). PostgREST decodes the query as http-types'
 * parseQueryReplacePlus does (pairs split on `&` and `;`, `+` is a space, a bad `%` escape stays literal),
 * sorts the pairs by name (stably) and writes them with the HTTP package's urlEncodeVars: repeated names
 * become one pair with comma-joined values, and every byte but ASCII letters, digits and `-_.~` is
 * percent-encoded. That encoder takes each byte of the UTF-8 query as a character and encodes it as UTF-8
 * again, so a non-ASCII byte becomes two escapes (`é` → `%C3%83%C2%A9`): this is what PostgREST 12/13 send.
 *
 * Strings here hold one byte per UTF-16 unit (latin1), as Haskell's Char8 ByteStrings do.
 */

const PLUS = 0x2b;
const PERCENT = 0x25;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) {
    return c - 0x30;
  }
  if (c >= 0x41 && c <= 0x46) {
    return c - 0x37;
  }
  if (c >= 0x61 && c <= 0x66) {
    return c - 0x57;
  }
  return -1;
}

/** http-types' urlDecode with `+` replaced by a space. */
export function urlDecode(s: string): string {
  if (!s.includes('%') && !s.includes('+')) {
    return s;
  }
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === PLUS) {
      out += ' ';
      continue;
    }
    if (c === PERCENT && i + 2 < s.length) {
      const hi = hexValue(s.charCodeAt(i + 1));
      const lo = hexValue(s.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        out += String.fromCharCode(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

const hex = (b: number) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`;

/** Each character from 0x00 to 0xFF as the HTTP package's urlEncode writes it (computed once). */
const ENCODED = Array.from({ length: 256 }, (_, c) => {
  if (/^[A-Za-z0-9\-_.~]$/.test(String.fromCharCode(c))) {
    return String.fromCharCode(c);
  }
  // A character from 0x80 to 0xFF encoded as UTF-8: two bytes.
  return c < 0x80 ? hex(c) : hex(0xc0 | (c >> 6)) + hex(0x80 | (c & 0x3f));
});
const UNRESERVED = /^[A-Za-z0-9\-_.~]*$/;

/** The HTTP package's urlEncode of a string whose characters are bytes. */
function urlEncode(s: string): string {
  // Most names and values need no escape: a table lookup per character only for the others.
  if (UNRESERVED.test(s)) {
    return s;
  }
  let out = '';
  for (let i = 0; i < s.length; i++) {
    out += ENCODED[s.charCodeAt(i)]!;
  }
  return out;
}

/**
 * http-types' parseSimpleQuery (with `+` as a space) of a latin1 string: pairs split on `&` and `;`, a name
 * without `=` has the empty value.
 */
export function parseSimpleQuery(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  let q = text;
  while (q.length > 0) {
    const sep = q.search(/[&;]/);
    const piece = sep < 0 ? q : q.slice(0, sep);
    q = sep < 0 ? '' : q.slice(sep + 1);
    const eq = piece.indexOf('=');
    pairs.push(
      eq < 0 ? [urlDecode(piece), ''] : [urlDecode(piece.slice(0, eq)), urlDecode(piece.slice(eq + 1))],
    );
  }
  return pairs;
}

/** qsCanonical of a raw query string (without or with its leading `?`). */
export function canonicalQuery(rawQuery: string): string {
  let q = Buffer.from(rawQuery, 'utf8').toString('latin1');
  if (q.startsWith('?')) {
    q = q.slice(1);
  }
  const pairs = parseSimpleQuery(q);
  // Array.prototype.sort is stable, as Haskell's sortOn; names compare byte by byte.
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const groups: string[] = [];
  for (let i = 0; i < pairs.length;) {
    const name = pairs[i]![0];
    const values: string[] = [];
    for (; i < pairs.length && pairs[i]![0] === name; i++) {
      values.push(urlEncode(pairs[i]![1]));
    }
    groups.push(`${urlEncode(name)}=${values.join(',')}`);
  }
  return groups.join('&');
}

/**
 * The Content-Location header value: the relation's name as UTF-8 bytes (a header value is bytes; Node
 * writes a string's units as latin1), then the canonical query.
 */
export function contentLocation(relation: string, rawQuery: string): string {
  const canonical = canonicalQuery(rawQuery);
  const name = Buffer.from(relation, 'utf8').toString('latin1');
  return `/${name}${canonical === '' ? '' : `?${canonical}`}`;
}
