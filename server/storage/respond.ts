import type { z } from 'zod';
import { StorageError } from './errors.ts';
import { contentDisposition } from './names.ts';
import type { ObjectRow } from './objects.ts';

/** The part of the URL after `marker` ("/object/sign/"), still percent-encoded. */
export const after = (url: string, marker: string) => {
  const path = new URL(url).pathname;
  return path.slice(path.indexOf(marker) + marker.length);
};

/** Validates a request body; a bad one is a 400 InvalidRequest naming the offending fields. */
export function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new StorageError(
      400,
      'InvalidRequest',
      parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
    );
  }
  return parsed.data;
}

export const fileObject = (r: ObjectRow) => ({
  name: r.name,
  id: r.id,
  updated_at: r.updated_at,
  created_at: r.created_at,
  last_accessed_at: r.last_accessed_at,
  metadata: r.metadata,
});

/** `<bucket>/<key>` with each key segment percent-encoded, for URLs the client parses with `new URL`. */
export const encodedPath = (bucket: string, name: string) =>
  `${bucket}/${name.split('/').map(encodeURIComponent).join('/')}`;

/** An object's bytes as a download; objects of public buckets may sit in shared caches. */
export function download(
  { row, bytes }: { row: ObjectRow; bytes: Uint8Array },
  downloadName: string | undefined,
  publicBucket = false,
): Response {
  const meta = row.metadata ?? {};
  const fileName = downloadName || row.name.split('/').pop()!;
  const cacheControl = typeof meta.cacheControl === 'string' ? meta.cacheControl : 'no-cache';
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'Content-Type': typeof meta.mimetype === 'string' ? meta.mimetype : 'application/octet-stream',
      'Content-Length': String(bytes.byteLength),
      'Content-Disposition': contentDisposition(fileName),
      // Objects of private buckets: no shared cache may keep a copy.
      'Cache-Control': publicBucket ? `public, ${cacheControl}` : `private, ${cacheControl}`,
      'X-Content-Type-Options': 'nosniff',
      ...(typeof meta.eTag === 'string' ? { ETag: meta.eTag } : {}),
    },
  });
}
