import type { Database } from '../db/database.ts';
import { runAs } from '../db/as-role.ts';
import type { RequestRole } from '../http/request-role.ts';
import { notFound } from './errors.ts';
import { asService, checkBucketLimits, isUuid, requireBucket } from './objects.ts';

export interface Transfer {
  bucket: string;
  sourceKey: string;
  destinationBucket: string;
  destinationKey: string;
}

export interface CopyOptions {
  upsert: boolean;
  /** Keep the source's file and user metadata (storage-js default), or apply `metadata` overrides. */
  copyMetadata: boolean;
  metadata: { cacheControl?: string | undefined; mimetype?: string | undefined } | undefined;
}

/** The columns of Supabase Storage's object schema, as copy answers them. */
export interface StoredObject {
  id: string;
  name: string;
  bucket_id: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: Record<string, unknown> | null;
  user_metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
}

const STORED_COLUMNS =
  'id, name, bucket_id, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at';

const ownerOf = (who: RequestRole) => (typeof who.claims.sub === 'string' ? who.claims.sub : null);

/**
 * Renames an object (possibly into another bucket) with one UPDATE run as the caller: the policies'
 * USING clause decides on the source row and WITH CHECK on the destination row, so a caller can move
 * only what they may change, and only to where they may keep it. The bytes follow by object id.
 */
export async function moveObject(db: Database, who: RequestRole, t: Transfer): Promise<StoredObject> {
  await requireBucket(db, t.bucket);
  if (t.destinationBucket !== t.bucket) {
    await requireBucket(db, t.destinationBucket);
  }
  return runAs(db, who, async (tx) => {
    const { rows } = await tx.query<StoredObject>(
      `update storage.objects set bucket_id = $3, name = $4, updated_at = now(), last_accessed_at = now()
        where bucket_id = $1 and name = $2 returning ${STORED_COLUMNS}`,
      [t.bucket, t.sourceKey, t.destinationBucket, t.destinationKey],
    );
    // A source the caller may not see looks exactly like a missing one.
    if (!rows[0]) {
      throw notFound();
    }
    return rows[0];
  });
}

/**
 * Copies an object: the source is read as the caller (SELECT policy) and the copy inserted as the caller
 * (INSERT policy, plus UPDATE when upserting), owned by the caller; the bytes are copied by the service.
 */
export async function copyObject(
  db: Database,
  who: RequestRole,
  t: Transfer,
  options: CopyOptions,
): Promise<StoredObject> {
  await requireBucket(db, t.bucket);
  const destination = await requireBucket(db, t.destinationBucket);
  return runAs(db, who, async (tx) => {
    const { rows: sources } = await tx.query<StoredObject>(
      `select ${STORED_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
      [t.bucket, t.sourceKey],
    );
    const source = sources[0];
    if (!source) {
      throw notFound();
    }
    const metadata: Record<string, unknown> = {
      ...(source.metadata ?? {}),
      ...(options.copyMetadata ? {} : definedOnly(options.metadata ?? {})),
      lastModified: new Date().toISOString(),
    };
    // The destination bucket's size and type limits hold for copies as for uploads.
    checkBucketLimits(destination, {
      bytes: { byteLength: Number(metadata.size ?? 0) },
      contentType: typeof metadata.mimetype === 'string' ? metadata.mimetype : 'application/octet-stream',
    });
    const owner = ownerOf(who);
    const conflict = options.upsert
      ? `on conflict (bucket_id, name) do update set metadata = excluded.metadata, user_metadata = excluded.user_metadata,
           owner = excluded.owner, owner_id = excluded.owner_id, updated_at = now()`
      : '';
    const { rows } = await tx.query<StoredObject>(
      `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata)
       values ($1, $2, $3::uuid, $4, $5, $6) ${conflict} returning ${STORED_COLUMNS}`,
      [
        t.destinationBucket,
        t.destinationKey,
        isUuid(owner) ? owner : null,
        owner,
        JSON.stringify(metadata),
        options.copyMetadata && source.user_metadata ? JSON.stringify(source.user_metadata) : null,
      ],
    );
    const copy = rows[0]!;
    await asService(tx);
    await tx.query(
      `insert into storage.object_data (object_id, data)
       select $1, data from storage.object_data where object_id = $2
       on conflict (object_id) do update set data = excluded.data`,
      [copy.id, source.id],
    );
    return copy;
  });
}

const definedOnly = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
