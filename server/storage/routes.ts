import { Hono, type Context } from 'hono';
import { limitRequestBody } from '../http/body-limit.ts';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import { isRoleFailure, resolveRequestRole, type RequestRole } from '../http/request-role.ts';
import { bucketRoutes } from './buckets.ts';
import { StorageError, storageErrorResponse } from './errors.ts';
import { keylessRoutes } from './keyless-routes.ts';
import { listFolder, ListRequest } from './list.ts';
import { manageRoutes } from './manage-routes.ts';
import { assertRawPathSafe, parseBucketName, parseObjectName, splitBucketPath } from './names.ts';
import { findObject, putObject, readObject, removeObjects } from './objects.ts';
import { after, download, fileObject, parse } from './respond.ts';
import { signObjectUrl } from './signed-url.ts';
import { readUploadBody } from './upload-body.ts';

type Env = { Variables: { who: RequestRole } };

const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
const SignBody = z.object({ expiresIn: z.number() });
// A bad expiry refuses the whole batch (as Supabase Storage's schema does), not each path.
const SignManyBody = z.object({
  expiresIn: z.number().int().min(1),
  paths: z.array(z.string()).max(1000),
});
const RemoveBody = z.object({ prefixes: z.array(z.string()).min(1).max(1000) });

/**
 * /storage/v1: the Supabase Storage endpoints storage-js uses for private buckets: upload, download,
 * signed URLs, list, remove, buckets. Every object operation runs as the caller's role, so the
 * policies on storage.objects decide; a signed URL's token is its own authorisation.
 */
export function storageRoutes(ctx: StackContext): Hono<Env> {
  const app = new Hono<Env>();
  app.onError((e, c) => storageErrorResponse(c, e));
  app.use(
    '*',
    limitRequestBody<Env>({
      maxSize: MAX_UPLOAD_BYTES,
      onError: (c) => storageErrorResponse(c, new StorageError(413, 'EntityTooLarge', 'Payload too large')),
    }),
  );

  app.use('*', async (c, next) => {
    // The raw request line from the Node server (absent when the app is called in process).
    assertRawPathSafe((c.env as { incoming?: { url?: string } } | undefined)?.incoming?.url);
    await next();
  });

  // Signed URLs and public buckets are opened by browsers without keys: the token or the bucket decides.
  app.route('/', keylessRoutes(ctx));

  // Everything else acts as the caller's role, from the apikey and Authorization headers.
  app.use('*', async (c, next) => {
    const who = await resolveRequestRole(ctx.keys, c.req.header('apikey'), c.req.header('authorization'));
    if (isRoleFailure(who)) {
      const message =
        who.kind === 'no_api_key'
          ? 'No API key found in request'
          : who.kind === 'expired_jwt'
            ? 'jwt expired'
            : who.kind === 'malformed_authorization'
              ? 'Invalid Authorization header: expected "Bearer <token>"'
              : 'Invalid JWT';
      throw new StorageError(
        401,
        who.kind === 'no_api_key' || who.kind === 'invalid_api_key' ? 'Unauthorized' : 'InvalidJWT',
        message,
      );
    }
    c.set('who', who);
    await next();
  });

  app.route('/bucket', bucketRoutes(ctx));
  app.route('/', manageRoutes(ctx));

  app.post('/object/sign/*', async (c) => {
    const rest = after(c.req.url, '/object/sign/');
    if (!rest.includes('/')) {
      const bucket = parseBucketName(rest);
      const body = parse(SignManyBody, await c.req.json().catch(() => null));
      return c.json(
        await Promise.all(
          body.paths.map(async (path) => {
            try {
              const name = parseObjectName(encodeURIComponent(path));
              await findObject(ctx.db, c.get('who'), bucket, name);
              const token = await signObjectUrl(ctx.keys, bucket, name, body.expiresIn);
              return { error: null, path, signedURL: `/object/sign/${bucket}/${name}?token=${token}` };
            } catch (e) {
              return {
                // Supabase Storage's words for a missing or hidden object; other refusals keep theirs.
                error:
                  e instanceof StorageError && e.code !== 'NoSuchKey'
                    ? e.message
                    : 'Either the object does not exist or you do not have access to it',
                path,
                signedURL: null,
              };
            }
          }),
        ),
      );
    }
    const { bucket, name } = splitBucketPath(rest);
    const { expiresIn } = parse(SignBody, await c.req.json().catch(() => null));
    // Only someone who may read the object (RLS) can hand out a link to it.
    await findObject(ctx.db, c.get('who'), bucket, name);
    const token = await signObjectUrl(ctx.keys, bucket, name, expiresIn);
    return c.json({ signedURL: `/object/sign/${bucket}/${name}?token=${token}` });
  });

  app.post('/object/list/:bucket', async (c) => {
    const bucket = parseBucketName(c.req.param('bucket'));
    const body = parse(ListRequest, await c.req.json().catch(() => ({})));
    return c.json(await listFolder(ctx.db, c.get('who'), bucket, body));
  });

  const getObject = (marker: string) => async (c: Context<Env>) => {
    const { bucket, name } = splitBucketPath(after(c.req.url, marker));
    await findObject(ctx.db, c.get('who'), bucket, name);
    return download(await readObject(ctx.db, bucket, name), c.req.query('download'));
  };
  app.get('/object/authenticated/*', getObject('/object/authenticated/'));
  app.get('/object/*', getObject('/object/'));

  const upload = (upsertDefault: boolean) => async (c: Context<Env>) => {
    const { bucket, name } = splitBucketPath(after(c.req.url, '/object/'));
    const body = await readUploadBody(c.req.raw);
    const upsert = upsertDefault || c.req.header('x-upsert') === 'true';
    const { id } = await putObject(ctx.db, c.get('who'), { bucket, name, upsert, ...body });
    return c.json({ Id: id, Key: `${bucket}/${name}` });
  };
  app.post('/object/*', upload(false));
  app.put('/object/*', upload(true));

  app.delete('/object/:bucket', async (c) => {
    const bucket = parseBucketName(c.req.param('bucket'));
    const { prefixes } = parse(RemoveBody, await c.req.json().catch(() => null));
    const names = prefixes.map((p) => parseObjectName(encodeURIComponent(p.replace(/^\/+/, ''))));
    const removed = await removeObjects(ctx.db, c.get('who'), bucket, names);
    return c.json(removed.map((r) => ({ ...fileObject(r), bucket_id: bucket })));
  });

  app.all('*', () => {
    throw new StorageError(404, 'NotFound', 'Route not found');
  });
  return app;
}
