import type { Database, Queryable } from '../db/database.ts';
import { runAs } from '../db/as-role.ts';
import type { RequestRole } from '../http/request-role.ts';
import { notFound, StorageError } from './errors.ts';

export interface ObjectRow {
  id: string;
  name: string;
  metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
}

export interface Upload {
  bucket: string;
  name: string;
  bytes: Uint8Array;
  contentType: string;
  cacheControl: string;
  upsert: boolean;
  userMetadata: Record<string, unknown> | null;
}

export interface BucketRow {
  id: string;
  public: boolean;
  file_size_limit: string | null;
  allowed_mime_types: string[] | null;
}

const OBJECT_COLUMNS = 'id, name, metadata, created_at, updated_at, last_accessed_at';

/** Object operations look the bucket up as the service, as Supabase Storage does; RLS guards the objects. */
export async function requireBucket(db: Queryable, bucket: string): Promise<BucketRow> {
  const { rows } = await db.query<BucketRow>(
    'select id, public, file_size_limit::text, allowed_mime_types from storage.buckets where id = $1',
    [bucket],
  );
  if (!rows[0]) {
    throw notFound('Bucket');
  }
  return rows[0];
}

/** Leaves the caller's role for the byte table, which only this service touches (RLS already decided). */
export const asService = (tx: Queryable) => tx.exec('reset role');

export function checkBucketLimits(
  bucket: BucketRow,
  upload: { bytes: { byteLength: number }; contentType: string },
): void {
  if (bucket.file_size_limit !== null && upload.bytes.byteLength > Number(bucket.file_size_limit)) {
    throw new StorageError(413, 'EntityTooLarge', 'The object exceeded the maximum allowed size');
  }
  const allowed = bucket.allowed_mime_types;
  const type = upload.contentType.split(';')[0]!.trim().toLowerCase();
  if (
    allowed?.length &&
    !allowed.some((a) => a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))))
  ) {
    throw new StorageError(415, 'InvalidMimeType', `mime type ${type} is not supported`);
  }
}

/** Stores an object; the INSERT (or upsert's UPDATE) runs as the caller so that policies decide. */
export async function putObject(db: Database, who: RequestRole, upload: Upload): Promise<{ id: string }> {
  checkBucketLimits(await requireBucket(db, upload.bucket), upload);
  const metadata = {
    eTag: `"${await sha1Hex(upload.bytes)}"`,
    size: upload.bytes.byteLength,
    mimetype: upload.contentType,
    cacheControl: upload.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: upload.bytes.byteLength,
    httpStatusCode: 200,
  };
  const owner = typeof who.claims.sub === 'string' ? who.claims.sub : null;
  const conflict = upload.upsert
    ? `on conflict (bucket_id, name) do update set metadata = excluded.metadata, user_metadata = excluded.user_metadata,
         owner = excluded.owner, owner_id = excluded.owner_id, updated_at = now()`
    : '';
  return runAs(db, who, async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata)
       values ($1, $2, $3::uuid, $4, $5, $6) ${conflict} returning id`,
      [
        upload.bucket,
        upload.name,
        isUuid(owner) ? owner : null,
        owner,
        JSON.stringify(metadata),
        upload.userMetadata === null ? null : JSON.stringify(upload.userMetadata),
      ],
    );
    const id = rows[0]!.id;
    await asService(tx);
    await tx.query(
      `insert into storage.object_data (object_id, data) values ($1, $2)
       on conflict (object_id) do update set data = excluded.data`,
      [id, upload.bytes],
    );
    return { id };
  });
}

/** The object the caller may read (RLS), or 404 — a hidden object looks exactly like a missing one. */
export function findObject(db: Database, who: RequestRole, bucket: string, name: string): Promise<ObjectRow> {
  return runAs(
    db,
    who,
    async (tx) => {
      const { rows } = await tx.query<ObjectRow>(
        `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
        [bucket, name],
      );
      if (!rows[0]) {
        throw notFound();
      }
      return rows[0];
    },
    { readOnly: true },
  );
}

/** Reads an object's bytes after the caller has been authorised (RLS select or a signed URL). */
export async function readObject(
  db: Queryable,
  bucket: string,
  name: string,
): Promise<{ row: ObjectRow; bytes: Uint8Array }> {
  const { rows } = await db.query<ObjectRow & { data: Uint8Array }>(
    `select o.id, o.name, o.metadata, o.created_at, o.updated_at, o.last_accessed_at, d.data
       from storage.objects o join storage.object_data d on d.object_id = o.id
      where o.bucket_id = $1 and o.name = $2`,
    [bucket, name],
  );
  const row = rows[0];
  if (!row) {
    throw notFound();
  }
  const { data, ...meta } = row;
  return { row: meta, bytes: data };
}

/** Deletes the named objects the caller may delete (RLS); returns those removed. */
export function removeObjects(
  db: Database,
  who: RequestRole,
  bucket: string,
  names: string[],
): Promise<ObjectRow[]> {
  return runAs(db, who, async (tx) => {
    const { rows } = await tx.query<ObjectRow & { bucket_id: string }>(
      `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning bucket_id, ${OBJECT_COLUMNS}`,
      [bucket, names],
    );
    return rows;
  });
}

/** Objects under `prefix` the caller may see (RLS), as rows for the list endpoint to fold into folders. */
export async function objectsUnder(
  db: Database,
  who: RequestRole,
  bucket: string,
  prefix: string,
): Promise<ObjectRow[]> {
  await requireBucket(db, bucket);
  const like = `${prefix.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
  return runAs(
    db,
    who,
    async (tx) => {
      const { rows } = await tx.query<ObjectRow>(
        `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name like $2 order by name limit 10000`,
        [bucket, like],
      );
      return rows;
    },
    { readOnly: true },
  );
}

export const isUuid = (s: string | null): s is string =>
  s !== null && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

async function sha1Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', bytes);
  return Buffer.from(digest).toString('hex');
}
