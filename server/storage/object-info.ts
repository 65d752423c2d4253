import type { Database, Queryable } from '../db/database.ts';
import { runAs } from '../db/as-role.ts';
import type { RequestRole } from '../http/request-role.ts';
import { notFound } from './errors.ts';
import { isUuid, requireBucket } from './objects.ts';

interface InfoRow {
  id: string;
  name: string;
  version: string | null;
  bucket_id: string;
  metadata: Record<string, unknown> | null;
  user_metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

/** Supabase Storage's `GET /object/info` body (its InfoRenderer), which storage-js camelises. */
export interface ObjectInfo {
  id: string;
  name: string;
  version: string | null;
  bucket_id: string;
  size: number | null;
  content_type: string | null;
  cache_control: string | null;
  etag: string | null;
  metadata: Record<string, unknown> | null;
  last_modified: string;
  created_at: string;
}

/**
 * An object's metadata. Objects of public buckets are described to anyone (as Supabase Storage does);
 * otherwise the caller's SELECT policy decides, and a hidden object is answered like a missing one.
 * `who === null` (no API key) reaches public buckets only.
 */
export async function objectInfo(
  db: Database,
  who: RequestRole | null,
  bucket: string,
  name: string,
): Promise<ObjectInfo> {
  const found = await requireBucket(db, bucket);
  if (!found.public && who === null) {
    throw notFound('Bucket');
  }
  const read = (tx: Queryable) =>
    tx.query<InfoRow>(
      `select id, name, version, bucket_id, metadata, user_metadata, created_at, updated_at
         from storage.objects where bucket_id = $1 and name = $2`,
      [bucket, name],
    );
  const { rows } =
    found.public || who === null ? await read(db) : await runAs(db, who, read, { readOnly: true });
  const row = rows[0];
  if (!row) {
    throw notFound();
  }
  const meta = row.metadata ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: typeof meta.size === 'number' ? meta.size : null,
    content_type: text(meta.mimetype),
    cache_control: text(meta.cacheControl),
    etag: text(meta.eTag),
    metadata: row.user_metadata,
    last_modified: row.updated_at,
    created_at: row.created_at,
  };
}

/** Thrown to roll back a transaction that only tested a permission. */
class PermissionProbe extends Error {}

/**
 * Checks, without keeping anything, that the caller's INSERT policy (UPDATE too when upserting) would
 * accept an object at `<bucket>/<name>`: Supabase Storage asks this before it signs an upload URL.
 */
export async function assertCanUpload(
  db: Database,
  who: RequestRole,
  bucket: string,
  name: string,
  upsert: boolean,
): Promise<void> {
  await requireBucket(db, bucket);
  const sub = typeof who.claims.sub === 'string' ? who.claims.sub : null;
  const conflict = upsert ? 'on conflict (bucket_id, name) do update set updated_at = now()' : '';
  try {
    await runAs(db, who, async (tx) => {
      await tx.query(
        `insert into storage.objects (bucket_id, name, owner, owner_id) values ($1, $2, $3::uuid, $4) ${conflict}`,
        [bucket, name, isUuid(sub) ? sub : null, sub],
      );
      throw new PermissionProbe();
    });
  } catch (e) {
    if (!(e instanceof PermissionProbe)) {
      throw e;
    }
  }
}
