import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import type { RequestRole } from '../http/request-role.ts';
import { storageErrorResponse } from './errors.ts';
import { parseBucketName, parseObjectName, splitBucketPath } from './names.ts';
import { assertCanUpload, objectInfo } from './object-info.ts';
import { after, encodedPath, parse } from './respond.ts';
import { signUploadUrl } from './signed-url.ts';
import { copyObject, moveObject, type Transfer } from './transfer.ts';

type Env = { Variables: { who: RequestRole } };

const TransferBody = z.object({
  bucketId: z.string(),
  sourceKey: z.string(),
  destinationKey: z.string(),
  destinationBucket: z.string().optional(),
});
const CopyBody = TransferBody.extend({
  copyMetadata: z.boolean().optional(),
  metadata: z.object({ cacheControl: z.string().optional(), mimetype: z.string().optional() }).optional(),
});

/** Keys from a JSON body are validated exactly as keys in URLs are (no `..`, no control characters). */
const key = (k: string) => parseObjectName(encodeURIComponent(k.replace(/^\/+/, '')));

function transfer(body: z.infer<typeof TransferBody>): Transfer {
  const bucket = parseBucketName(encodeURIComponent(body.bucketId));
  return {
    bucket,
    sourceKey: key(body.sourceKey),
    destinationBucket: body.destinationBucket
      ? parseBucketName(encodeURIComponent(body.destinationBucket))
      : bucket,
    destinationKey: key(body.destinationKey),
  };
}

/**
 * Object management as the caller's role: move, copy, metadata (info) and signing upload URLs.
 * Mounted behind the API-key check of routes.ts, so `who` is always set.
 */
export function manageRoutes(ctx: StackContext): Hono<Env> {
  const app = new Hono<Env>();
  app.onError((e, c) => storageErrorResponse(c, e));

  app.post('/object/move', async (c) => {
    const t = transfer(parse(TransferBody, await c.req.json().catch(() => null)));
    const moved = await moveObject(ctx.db, c.get('who'), t);
    return c.json({ message: 'Successfully moved', Id: moved.id, Key: moved.name });
  });

  app.post('/object/copy', async (c) => {
    const body = parse(CopyBody, await c.req.json().catch(() => null));
    const t = transfer(body);
    const copy = await copyObject(ctx.db, c.get('who'), t, {
      upsert: c.req.header('x-upsert') === 'true',
      copyMetadata: body.copyMetadata ?? true,
      metadata: body.metadata,
    });
    return c.json({ Id: copy.id, Key: `${t.destinationBucket}/${t.destinationKey}`, ...copy });
  });

  const info = (marker: string) => async (c: Context<Env>) => {
    const { bucket, name } = splitBucketPath(after(c.req.url, marker));
    const found = await objectInfo(ctx.db, c.get('who'), bucket, name);
    c.header('ETag', found.etag ?? undefined);
    c.header('Last-Modified', new Date(found.last_modified).toUTCString());
    return c.json(found);
  };
  app.get('/object/info/authenticated/*', info('/object/info/authenticated/'));
  app.get('/object/info/*', info('/object/info/'));

  // createSignedUploadUrl: only a caller whose INSERT policy admits the object may hand out the URL.
  app.post('/object/upload/sign/*', async (c) => {
    const { bucket, name } = splitBucketPath(after(c.req.url, '/object/upload/sign/'));
    const who = c.get('who');
    const upsert = c.req.header('x-upsert') === 'true';
    await assertCanUpload(ctx.db, who, bucket, name, upsert);
    const owner = typeof who.claims.sub === 'string' ? who.claims.sub : null;
    const token = await signUploadUrl(ctx.keys, bucket, name, owner, upsert);
    return c.json({ url: `/object/upload/sign/${encodedPath(bucket, name)}?token=${token}`, token });
  });
  return app;
}
