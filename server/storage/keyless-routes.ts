import { Hono } from 'hono';
import type { StackContext } from '../context.ts';
import type { RequestRole } from '../http/request-role.ts';
import { notFound, storageErrorResponse } from './errors.ts';
import { splitBucketPath } from './names.ts';
import { objectInfo } from './object-info.ts';
import { putObject, readObject, requireBucket } from './objects.ts';
import { after, download } from './respond.ts';
import { verifyObjectToken } from './signed-url.ts';
import { readUploadBody } from './upload-body.ts';

/**
 * The object routes browsers and upload widgets reach without API keys: signed downloads and uploads
 * (the token is the authorisation) and the objects of public buckets (the bucket's flag is).
 */
export function keylessRoutes(ctx: StackContext): Hono {
  const app = new Hono();
  app.onError((e, c) => storageErrorResponse(c, e));

  app.get('/object/sign/*', async (c) => {
    const { bucket, name } = splitBucketPath(after(c.req.url, '/object/sign/'));
    await verifyObjectToken(ctx.keys, c.req.query('token'), bucket, name, 'download');
    return download(await readObject(ctx.db, bucket, name), c.req.query('download'));
  });

  // uploadToSignedUrl: the upload token names the object, its owner and whether it may overwrite.
  app.put('/object/upload/sign/*', async (c) => {
    const { bucket, name } = splitBucketPath(after(c.req.url, '/object/upload/sign/'));
    const claims = await verifyObjectToken(ctx.keys, c.req.query('token'), bucket, name, 'upload');
    const owner = typeof claims.owner === 'string' ? claims.owner : undefined;
    // The creator's INSERT policy was checked when the URL was signed; the upload itself is the service's.
    const asOwner: RequestRole = {
      role: 'service_role',
      claims: { role: 'service_role', ...(owner ? { sub: owner } : {}) },
      accessToken: null,
    };
    const body = await readUploadBody(c.req.raw);
    await putObject(ctx.db, asOwner, { bucket, name, upsert: claims.upsert === true, ...body });
    return c.json({ Key: `${bucket}/${name}` });
  });

  app.get('/object/public/*', async (c) => {
    const { bucket, name } = splitBucketPath(after(c.req.url, '/object/public/'));
    // Only a bucket flagged public serves its objects without credentials.
    if (!(await requireBucket(ctx.db, bucket)).public) {
      throw notFound('Bucket');
    }
    return download(await readObject(ctx.db, bucket, name), c.req.query('download'), true);
  });

  app.get('/object/info/public/*', async (c) => {
    const { bucket, name } = splitBucketPath(after(c.req.url, '/object/info/public/'));
    return c.json(await objectInfo(ctx.db, null, bucket, name));
  });
  return app;
}
