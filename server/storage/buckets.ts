import { Hono } from 'hono';
import { z } from 'zod';
import { runAs } from '../db/as-role.ts';
import type { StackContext } from '../context.ts';
import type { RequestRole } from '../http/request-role.ts';
import { notFound, StorageError, storageErrorResponse } from './errors.ts';
import { parseBucketName } from './names.ts';

type Env = { Variables: { who: RequestRole } };

const BUCKET_COLUMNS = `id, name, owner, public, file_size_limit, allowed_mime_types, created_at, updated_at`;

const CreateBucket = z.object({
  id: z.string().optional(),
  name: z.string(),
  public: z.boolean().default(false),
  file_size_limit: z.union([z.number().int().positive(), z.string(), z.null()]).optional(),
  allowed_mime_types: z.array(z.string()).nullable().optional(),
});

/** /bucket: list, read, create and delete buckets, each as the caller's role (RLS on storage.buckets). */
export function bucketRoutes(ctx: StackContext): Hono<Env> {
  const app = new Hono<Env>();
  app.onError((e, c) => storageErrorResponse(c, e));

  app.get('/', async (c) => {
    const rows = await runAs(
      ctx.db,
      c.get('who'),
      (tx) => tx.query(`select ${BUCKET_COLUMNS} from storage.buckets order by name`),
      { readOnly: true },
    );
    return c.json(rows.rows);
  });

  app.get('/:id', async (c) => {
    const id = parseBucketName(c.req.param('id'));
    const { rows } = await runAs(
      ctx.db,
      c.get('who'),
      (tx) => tx.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id]),
      { readOnly: true },
    );
    if (!rows[0]) {
      throw notFound('Bucket');
    }
    return c.json(rows[0]);
  });

  app.post('/', async (c) => {
    const parsed = CreateBucket.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) {
      throw new StorageError(400, 'InvalidRequest', 'body must have a string "name"');
    }
    const body = parsed.data;
    const id = parseBucketName(body.id ?? body.name);
    const limit = body.file_size_limit == null ? null : parseSize(body.file_size_limit);
    const sub = c.get('who').claims.sub;
    await runAs(ctx.db, c.get('who'), (tx) =>
      tx.query(
        `insert into storage.buckets (id, name, owner_id, public, file_size_limit, allowed_mime_types) values ($1, $2, $3, $4, $5, $6)`,
        [
          id,
          parseBucketName(body.name),
          typeof sub === 'string' ? sub : null,
          body.public,
          limit,
          body.allowed_mime_types ?? null,
        ],
      ),
    );
    return c.json({ name: id });
  });

  app.delete('/:id', async (c) => {
    const id = parseBucketName(c.req.param('id'));
    // Deleting a bucket must not orphan objects: Supabase refuses a non-empty bucket.
    const { rows: used } = await ctx.db.query('select 1 from storage.objects where bucket_id = $1 limit 1', [
      id,
    ]);
    if (used.length) {
      throw new StorageError(409, 'InvalidRequest', 'The bucket you tried to delete is not empty');
    }
    const { affectedRows } = await runAs(ctx.db, c.get('who'), (tx) =>
      tx.query('delete from storage.buckets where id = $1', [id]),
    );
    if (!affectedRows) {
      throw notFound('Bucket');
    }
    return c.json({ message: 'Successfully deleted' });
  });
  return app;
}

/** file_size_limit as a number of bytes or a string such as "5MB". */
function parseSize(v: number | string): number {
  if (typeof v === 'number') {
    return v;
  }
  const m = /^(\d+)\s*(B|KB|MB|GB)?$/i.exec(v.trim());
  if (!m) {
    throw new StorageError(400, 'InvalidRequest', `Invalid file_size_limit ${v}`);
  }
  const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[(m[2] ?? 'B').toUpperCase() as 'B'];
  return Number(m[1]) * unit;
}
