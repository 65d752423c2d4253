// Compressed responses for the web build: HTML, scripts, styles, JSON and SVG go out as Brotli or gzip,
// whichever the browser prefers (Accept-Encoding with its q-values, via negotiator). Each file is compressed
// once per version (path, size, mtime) and kept in a bounded in-memory cache: the build is a few MB.
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';

import Negotiator from 'negotiator';

export type Encoding = 'br' | 'gzip';

interface PreferringNegotiator {
  encoding(available: readonly string[], options: { preferred: readonly string[] }): string | undefined;
}

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|manifest\+json|xml)|image\/svg\+xml)/;
// Below this, the header overhead eats the gain.
const MIN_BYTES = 1024;
const CACHE_MAX_BYTES = 32 * 1024 * 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The encoding to use for a response of this type and size, or null to send it as is. */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  contentType: string,
  bytes: number,
): Encoding | null {
  if (bytes < MIN_BYTES || !COMPRESSIBLE.test(contentType)) {
    return null;
  }
  // negotiator ≥ 1 breaks ties in the server's order with `preferred` (`gzip, br` → br); its types predate it.
  const negotiator = new Negotiator({
    headers: { 'accept-encoding': acceptEncoding ?? '' },
  }) as unknown as PreferringNegotiator;
  const chosen = negotiator.encoding(['br', 'gzip', 'identity'], { preferred: ['br', 'gzip', 'identity'] });
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

export class CompressionCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  /** The compressed bytes of this version of a file; `read` runs only when they are not cached yet. */
  async get(version: string, encoding: Encoding, read: () => Promise<Buffer>): Promise<Buffer> {
    const key = `${encoding}:${version}`;
    const hit = this.entries.get(key);
    if (hit) {
      return hit;
    }
    const body = await read();
    const compressed =
      encoding === 'br'
        ? await brotli(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 9,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          })
        : await gz(body, { level: 9 });
    this.entries.set(key, compressed);
    this.bytes += compressed.length;
    // Guard: a long-running stack serving many rebuilds must not grow without bound; oldest go first.
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= CACHE_MAX_BYTES) {
        break;
      }
      this.entries.delete(oldKey);
      this.bytes -= old.length;
    }
    return compressed;
  }
}
