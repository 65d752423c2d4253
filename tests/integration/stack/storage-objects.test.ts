import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';

const PRIVATE = 'case-files';
const OTHER = 'case-archive';
const PUBLIC = 'brand-assets';
let stack: RunningStack;
let alice: TestUser;
let bob: TestUser;

const bytes = (s: string) => new TextEncoder().encode(s);

beforeAll(async () => {
  stack = await startTestStack();
  // What a project's migration would grant: each user reads, writes, renames and deletes only objects under
  // their own user-id folder, in the two private buckets.
  for (const op of ['select', 'insert', 'update', 'delete']) {
    const own = `bucket_id in ('${PRIVATE}', '${OTHER}') and (storage.foldername(name))[1] = auth.uid()::text`;
    const clause =
      op === 'insert'
        ? `with check (${own})`
        : op === 'update'
          ? `using (${own}) with check (${own})`
          : `using (${own})`;
    await stack.ctx.db.exec(
      `create policy "own folder ${op}" on storage.objects for ${op} to authenticated ${clause}`,
    );
  }
  const service = client(stack, 'service_role');
  for (const [id, isPublic] of [
    [PRIVATE, false],
    [OTHER, false],
    [PUBLIC, true],
  ] as const) {
    expect((await service.storage.createBucket(id, { public: isPublic })).error).toBeNull();
  }
  alice = await signedInUser(stack, 'alice.storage@example.com');
  bob = await signedInUser(stack, 'bob.storage@example.com');
});
afterAll(() => stack.close());

describe('storage: move and copy', () => {
  it('moves an object within the own folder and across buckets, keeping its bytes', async () => {
    const files = alice.supabase.storage.from(PRIVATE);
    expect(
      (await files.upload(`${alice.id}/draft.txt`, bytes('v1'), { contentType: 'text/plain' })).error,
    ).toBeNull();
    const moved = await files.move(`${alice.id}/draft.txt`, `${alice.id}/final.txt`);
    expect(moved.error).toBeNull();
    expect(moved.data).toMatchObject({ message: 'Successfully moved' });
    expect((await files.download(`${alice.id}/draft.txt`)).error).not.toBeNull();
    expect(await (await files.download(`${alice.id}/final.txt`)).data!.text()).toBe('v1');

    const across = await files.move(`${alice.id}/final.txt`, `${alice.id}/kept.txt`, {
      destinationBucket: OTHER,
    });
    expect(across.error).toBeNull();
    expect(
      await (await alice.supabase.storage.from(OTHER).download(`${alice.id}/kept.txt`)).data!.text(),
    ).toBe('v1');
  });

  it("refuses moving another user's object, into another user's folder, onto an existing key or from nowhere", async () => {
    const files = alice.supabase.storage.from(PRIVATE);
    await bob.supabase.storage.from(PRIVATE).upload(`${bob.id}/mine.txt`, bytes('bob'));
    await files.upload(`${alice.id}/a.txt`, bytes('a'));
    await files.upload(`${alice.id}/b.txt`, bytes('b'));

    const steal = await files.move(`${bob.id}/mine.txt`, `${alice.id}/stolen.txt`);
    expect(steal.error).toMatchObject({ message: 'Object not found', statusCode: '404' });
    const plant = await files.move(`${alice.id}/a.txt`, `${bob.id}/planted.txt`);
    expect(plant.error).toMatchObject({ statusCode: '403' });
    expect(plant.error?.message).toMatch(/row-level security/);
    const clash = await files.move(`${alice.id}/a.txt`, `${alice.id}/b.txt`);
    expect(clash.error).toMatchObject({ statusCode: '409', message: 'The resource already exists' });
    const missing = await files.move(`${alice.id}/none.txt`, `${alice.id}/x.txt`);
    expect(missing.error).toMatchObject({ statusCode: '404' });
    const noBucket = await files.move(`${alice.id}/a.txt`, `${alice.id}/x.txt`, {
      destinationBucket: 'nope',
    });
    expect(noBucket.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
    const traversal = await files.move(`${alice.id}/a.txt`, `${alice.id}/../${bob.id}/x.txt`);
    expect(traversal.error).toMatchObject({ statusCode: '400' });
    expect(await (await bob.supabase.storage.from(PRIVATE).download(`${bob.id}/mine.txt`)).data!.text()).toBe(
      'bob',
    );
  });

  it('copies an object with its metadata, owned by the copier, and refuses copies out of reach', async () => {
    const files = alice.supabase.storage.from(PRIVATE);
    await files.upload(`${alice.id}/src.txt`, bytes('copy me'), {
      contentType: 'text/plain',
      metadata: { case: '42' },
    });
    const copied = await files.copy(`${alice.id}/src.txt`, `${alice.id}/dst.txt`);
    expect(copied.error).toBeNull();
    expect(copied.data).toEqual({ path: `${PRIVATE}/${alice.id}/dst.txt` });
    const info = await files.info(`${alice.id}/dst.txt`);
    expect(info.data).toMatchObject({ contentType: 'text/plain', size: 7, metadata: { case: '42' } });
    expect(await (await files.download(`${alice.id}/src.txt`)).data!.text()).toBe('copy me');
    expect(await (await files.download(`${alice.id}/dst.txt`)).data!.text()).toBe('copy me');

    const stripped = await files.copy(`${alice.id}/src.txt`, `${alice.id}/plain.txt`, {
      copyMetadata: false,
      metadata: { mimetype: 'application/octet-stream' },
    });
    expect(stripped.error).toBeNull();
    expect((await files.info(`${alice.id}/plain.txt`)).data).toMatchObject({
      contentType: 'application/octet-stream',
      metadata: null,
    });

    expect((await files.copy(`${alice.id}/src.txt`, `${alice.id}/dst.txt`)).error).toMatchObject({
      statusCode: '409',
    });
    const fromBob = await bob.supabase.storage.from(PRIVATE).copy(`${alice.id}/src.txt`, `${bob.id}/x.txt`);
    expect(fromBob.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
    const intoBob = await files.copy(`${alice.id}/src.txt`, `${bob.id}/x.txt`);
    expect(intoBob.error).toMatchObject({ statusCode: '403' });
  });

  it('answers malformed move and copy bodies with 400 InvalidRequest', async () => {
    for (const body of [
      null,
      {},
      { bucketId: PRIVATE, sourceKey: 1, destinationKey: 'x' },
      { bucketId: '../x', sourceKey: 'a', destinationKey: 'b' },
    ]) {
      for (const op of ['move', 'copy']) {
        const res = await fetch(`${stack.url}/storage/v1/object/${op}`, {
          method: 'POST',
          headers: {
            apikey: stack.status.anon_key,
            authorization: `Bearer ${alice.accessToken}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(body),
        });
        expect(res.status, `${op} ${JSON.stringify(body)}`).toBe(400);
        expect(await res.json()).toMatchObject({ statusCode: '400' });
      }
    }
  });
});

describe('storage: info and exists', () => {
  it('describes an object the caller may read and hides the rest', async () => {
    const files = alice.supabase.storage.from(PRIVATE);
    await files.upload(`${alice.id}/report.pdf`, bytes('%PDF'), {
      contentType: 'application/pdf',
      cacheControl: '60',
    });
    const info = await files.info(`${alice.id}/report.pdf`);
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({
      name: `${alice.id}/report.pdf`,
      bucketId: PRIVATE,
      size: 4,
      contentType: 'application/pdf',
      cacheControl: 'max-age=60',
    });
    expect(info.data!.etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(await files.exists(`${alice.id}/report.pdf`)).toMatchObject({ data: true, error: null });

    const asBob = bob.supabase.storage.from(PRIVATE);
    expect((await asBob.info(`${alice.id}/report.pdf`)).error).toMatchObject({ statusCode: '404' });
    expect((await asBob.exists(`${alice.id}/report.pdf`)).data).toBe(false);
    expect((await files.exists(`${alice.id}/none.pdf`)).data).toBe(false);
    // A missing bucket is no missing object: exists() throws, as storage-js documents.
    await expect(alice.supabase.storage.from('nope').exists('a.txt')).rejects.toMatchObject({ status: 404 });
  });
});

describe('storage: signed upload URLs', () => {
  it("uploads once through a token bound to the object, owned by the token's creator", async () => {
    const files = alice.supabase.storage.from(PRIVATE);
    const signed = await files.createSignedUploadUrl(`${alice.id}/inbox/scan.txt`);
    expect(signed.error).toBeNull();
    expect(signed.data!.signedUrl).toContain(
      `/storage/v1/object/upload/sign/${PRIVATE}/${alice.id}/inbox/scan.txt?token=`,
    );
    // Anyone holding the URL may upload, without a session: an anon client here.
    const up = await client(stack)
      .storage.from(PRIVATE)
      .uploadToSignedUrl(`${alice.id}/inbox/scan.txt`, signed.data!.token, bytes('scan'), {
        contentType: 'text/plain',
      });
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({
      path: `${alice.id}/inbox/scan.txt`,
      fullPath: `${PRIVATE}/${alice.id}/inbox/scan.txt`,
    });
    expect(await (await files.download(`${alice.id}/inbox/scan.txt`)).data!.text()).toBe('scan');
    const { rows } = await stack.ctx.db.query<{ owner: string }>(
      'select owner::text from storage.objects where name = $1',
      [`${alice.id}/inbox/scan.txt`],
    );
    expect(rows).toEqual([{ owner: alice.id }]);
    // Without upsert the token cannot overwrite what it uploaded.
    const again = await client(stack)
      .storage.from(PRIVATE)
      .uploadToSignedUrl(`${alice.id}/inbox/scan.txt`, signed.data!.token, bytes('evil'));
    expect(again.error).toMatchObject({ statusCode: '409' });
  });

  it('refuses tokens used for another object, for download, forged or expired, and signing outside policy', async () => {
    const files = alice.supabase.storage.from(PRIVATE);
    const { data } = await files.createSignedUploadUrl(`${alice.id}/inbox/one.txt`);
    const anon = client(stack).storage.from(PRIVATE);
    const other = await anon.uploadToSignedUrl(`${alice.id}/inbox/two.txt`, data!.token, bytes('x'));
    expect(other.error).toMatchObject({ statusCode: '400', message: 'The url do not match the signature' });
    const otherBucket = await client(stack)
      .storage.from(OTHER)
      .uploadToSignedUrl(`${alice.id}/inbox/one.txt`, data!.token, bytes('x'));
    expect(otherBucket.error).toMatchObject({ statusCode: '400' });
    const asDownload = await fetch(
      `${stack.url}/storage/v1/object/sign/${PRIVATE}/${alice.id}/inbox/one.txt?token=${data!.token}`,
    );
    expect(asDownload.status).toBe(400);
    expect(await asDownload.json()).toMatchObject({ message: 'Token is not scoped for download' });
    const forged = await anon.uploadToSignedUrl(
      `${alice.id}/inbox/one.txt`,
      `${data!.token.slice(0, -4)}AAAA`,
      bytes('x'),
    );
    expect(forged.error).toMatchObject({ statusCode: '400', message: 'invalid signature' });
    const expired = await stack.ctx.keys.sign(
      {
        role: 'storage_signed_url',
        url: `${PRIVATE}/${alice.id}/inbox/one.txt`,
        scope: 'upload',
        owner: alice.id,
      },
      -5,
    );
    expect(
      (await anon.uploadToSignedUrl(`${alice.id}/inbox/one.txt`, expired, bytes('x'))).error,
    ).toMatchObject({ message: 'jwt expired' });
    // A download token does not upload.
    await files.upload(`${alice.id}/inbox/d.txt`, bytes('d'));
    const dl = await files.createSignedUrl(`${alice.id}/inbox/d.txt`, 60);
    const dlToken = new URL(dl.data!.signedUrl).searchParams.get('token')!;
    const wrongScope = await anon.uploadToSignedUrl(`${alice.id}/inbox/d.txt`, dlToken, bytes('x'), {
      upsert: true,
    });
    expect(wrongScope.error).toMatchObject({ statusCode: '400', message: 'Token is not scoped for upload' });
    // Bob's INSERT policy does not cover Alice's folder, so he cannot sign an upload into it; anon cannot sign at all.
    expect(
      (await bob.supabase.storage.from(PRIVATE).createSignedUploadUrl(`${alice.id}/x.txt`)).error,
    ).toMatchObject({ statusCode: '403' });
    expect((await anon.createSignedUploadUrl(`${alice.id}/x.txt`)).error).toMatchObject({
      statusCode: '403',
    });
    expect((await files.createSignedUploadUrl(`${alice.id}/inbox/d.txt`)).error).toMatchObject({
      statusCode: '409',
    });
    expect((await files.createSignedUploadUrl(`${alice.id}/inbox/d.txt`, { upsert: true })).error).toBeNull();
    expect(
      (await alice.supabase.storage.from('nope').createSignedUploadUrl(`${alice.id}/x.txt`)).error,
    ).toMatchObject({ statusCode: '404' });
  });
});

describe('storage: signed URLs (plural) and public buckets', () => {
  it('signs many paths, reporting hidden and missing ones per path', async () => {
    const files = alice.supabase.storage.from(PRIVATE);
    await files.upload(`${alice.id}/m1.txt`, bytes('m1'));
    await bob.supabase.storage.from(PRIVATE).upload(`${bob.id}/m2.txt`, bytes('m2'));
    const { data, error } = await files.createSignedUrls(
      [`${alice.id}/m1.txt`, `${bob.id}/m2.txt`, `${alice.id}/none.txt`],
      60,
    );
    expect(error).toBeNull();
    expect(data!.map((d) => d.error)).toEqual([
      null,
      'Either the object does not exist or you do not have access to it',
      'Either the object does not exist or you do not have access to it',
    ]);
    expect(await (await fetch(data![0]!.signedUrl!)).text()).toBe('m1');
    const bad = await files.createSignedUrls([`${alice.id}/m1.txt`], -1);
    expect(bad.error).toMatchObject({ statusCode: '400' });
  });

  it('serves objects of public buckets without keys, and nothing of private ones', async () => {
    const service = client(stack, 'service_role');
    await service.storage.from(PUBLIC).upload('logo.svg', bytes('<svg/>'), { contentType: 'image/svg+xml' });
    await service.storage.from(PRIVATE).upload(`${alice.id}/private.txt`, bytes('secret'));
    const url = client(stack).storage.from(PUBLIC).getPublicUrl('logo.svg').data.publicUrl;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toMatch(/^public/);
    expect(await res.text()).toBe('<svg/>');
    expect((await client(stack).storage.from(PUBLIC).info('logo.svg')).data).toMatchObject({ size: 6 });

    const hidden = await fetch(
      client(stack).storage.from(PRIVATE).getPublicUrl(`${alice.id}/private.txt`).data.publicUrl,
    );
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
    expect((await fetch(`${stack.url}/storage/v1/object/public/${PUBLIC}/missing.svg`)).status).toBe(404);
    expect(
      (await fetch(`${stack.url}/storage/v1/object/info/public/${PRIVATE}/${alice.id}/private.txt`)).status,
    ).toBe(404);
  });
});
