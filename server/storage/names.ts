import { invalidKey } from './errors.ts';

const MAX_KEY_LENGTH = 1024;
// Control characters (NUL included) and backslashes have no place in a key: they confuse file systems,
// headers and path-based policies.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f\\]/;

/**
 * Decodes and validates an object key from the URL. Guards path-based authorisation (policies read
 * the user-id folder): `..`, `.` and empty segments, backslashes and control characters are refused,
 * so a key always means the one folder path it spells.
 */
export function parseObjectName(encoded: string): string {
  let name: string;
  try {
    name = decodeURIComponent(encoded);
  } catch {
    throw invalidKey('Invalid key: bad percent-encoding');
  }
  if (!name || name.length > MAX_KEY_LENGTH || FORBIDDEN.test(name)) {
    throw invalidKey(`Invalid key: ${JSON.stringify(name)}`);
  }
  const segments = name.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw invalidKey(`Invalid key: ${JSON.stringify(name)}`);
  }
  return name;
}

const BUCKET = /^[A-Za-z0-9_.-]{1,100}$/;

export function parseBucketName(encoded: string): string {
  let name = '';
  try {
    name = decodeURIComponent(encoded);
  } catch {
    // falls through to the refusal below
  }
  if (!BUCKET.test(name) || name === '.' || name === '..') {
    throw invalidKey('Invalid bucket name');
  }
  return name;
}

/** Splits `<bucket>/<key...>` (still percent-encoded) as storage-js sends it. */
export function splitBucketPath(rest: string): { bucket: string; name: string } {
  const slash = rest.indexOf('/');
  if (slash <= 0) {
    throw invalidKey('Expected /<bucket>/<path>');
  }
  return { bucket: parseBucketName(rest.slice(0, slash)), name: parseObjectName(rest.slice(slash + 1)) };
}

/** `attachment` with the file name in both the ASCII and the RFC 5987 form. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Checks the request path as the client sent it, before URL parsing folded `..` and `%2e%2e` segments
 * away: a key that tried to climb out of its folder is refused, not silently rewritten to another key.
 */
export function assertRawPathSafe(rawUrl: string | undefined): void {
  if (!rawUrl) {
    return;
  }
  const rawPath = rawUrl.split('?')[0]!;
  for (const segment of rawPath.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw invalidKey('Invalid key: bad percent-encoding');
    }
    if (
      decoded === '.' ||
      decoded === '..' ||
      FORBIDDEN.test(decoded) ||
      /(^|[\\/])\.\.?([\\/]|$)/.test(decoded)
    ) {
      throw invalidKey('Invalid key: path traversal is not allowed');
    }
  }
}
