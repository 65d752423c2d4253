import http from 'node:http';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';

const BUCKET = 'test-reports';
let stack: RunningStack;
const alice = crypto.randomUUID();
const bob = crypto.randomUUID();

/** supabase-js acting as a signed-in user (tokens minted as auth would mint them). */
async function userClient(sub: string) {
  const token = await stack.ctx.keys.sign(
    {
      sub,
      role: 'authenticated',
      aud: 'authenticated',
      session_id: crypto.randomUUID(),
      aal: 'aal1',
      amr: [],
    },
    3600,
  );
  return createClient(stack.url, stack.status.anon_key, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
    realtime: { transport: WebSocket as never },
  });
}

/** A raw request whose path reaches the server exactly as written (fetch would normalise `..`). */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(stack.url);
    http
      .get({ hostname, port, path, headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  stack = await startTestStack();
  // The policy a project's migration would add: a customer reads only objects under their own user-id folder.
  await stack.ctx.db.exec(`create policy "test: own folder" on storage.objects for select to authenticated
    using (bucket_id = '${BUCKET}' and (storage.foldername(name))[1] = auth.uid()::text)`);
  const { error } = await client(stack, 'service_role').storage.createBucket(BUCKET, { public: false });
  expect(error).toBeNull();
});
afterAll(() => stack.close());

const pdf = new TextEncoder().encode('%PDF-1.7 report bytes');

describe('storage', () => {
  it('lets the service upload and a customer download their own object through a signed URL', async () => {
    const service = client(stack, 'service_role');
    const up = await service.storage
      .from(BUCKET)
      .upload(`${alice}/weekly report.pdf`, pdf, { contentType: 'application/pdf' });
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({
      path: `${alice}/weekly report.pdf`,
      fullPath: `${BUCKET}/${alice}/weekly report.pdf`,
    });

    const a = await userClient(alice);
    const signed = await a.storage.from(BUCKET).createSignedUrl(`${alice}/weekly report.pdf`, 60);
    expect(signed.error).toBeNull();
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('filename="weekly report.pdf"');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pdf);

    const direct = await a.storage.from(BUCKET).download(`${alice}/weekly report.pdf`);
    expect(direct.error).toBeNull();
    expect(await direct.data!.text()).toBe('%PDF-1.7 report bytes');
  });

  it('refuses the object to another customer and to anon, and refuses user uploads without a policy', async () => {
    await client(stack, 'service_role')
      .storage.from(BUCKET)
      .upload(`${alice}/secret.pdf`, pdf, { contentType: 'application/pdf' });
    for (const other of [await userClient(bob), client(stack)]) {
      const signed = await other.storage.from(BUCKET).createSignedUrl(`${alice}/secret.pdf`, 60);
      expect(signed.data).toBeNull();
      expect(signed.error?.message).toBe('Object not found');
      const dl = await other.storage.from(BUCKET).download(`${alice}/secret.pdf`);
      expect(dl.data).toBeNull();
      const listed = await other.storage.from(BUCKET).list(alice);
      expect(listed.data ?? []).toEqual([]);
    }
    const up = await (await userClient(bob)).storage.from(BUCKET).upload(`${bob}/x.pdf`, pdf);
    expect(up.error?.message).toMatch(/row-level security/);
  });

  it('refuses expired, tampered and foreign signed-URL tokens with 400', async () => {
    const service = client(stack, 'service_role');
    await service.storage.from(BUCKET).upload(`${alice}/a.pdf`, pdf, { contentType: 'application/pdf' });
    await service.storage.from(BUCKET).upload(`${bob}/b.pdf`, pdf, { contentType: 'application/pdf' });
    const { data } = await service.storage.from(BUCKET).createSignedUrl(`${alice}/a.pdf`, 60);
    const url = new URL(data!.signedUrl);
    const token = url.searchParams.get('token')!;

    const tampered = new URL(url);
    tampered.searchParams.set('token', `${token.slice(0, -4)}AAAA`);
    const forOther = new URL(url.href.replace(`${alice}/a.pdf`, `${bob}/b.pdf`));
    const expiredToken = await stack.ctx.keys.sign(
      { role: 'storage_signed_url', url: `${BUCKET}/${alice}/a.pdf` },
      -5,
    );
    const expired = new URL(url);
    expired.searchParams.set('token', expiredToken);
    const apiKeyAsToken = new URL(url);
    apiKeyAsToken.searchParams.set('token', stack.status.service_role_key);

    for (const [u, message] of [
      [tampered, 'invalid signature'],
      [forOther, 'The url do not match the signature'],
      [expired, 'jwt expired'],
      [apiKeyAsToken, 'The url do not match the signature'],
    ] as const) {
      const res = await fetch(u);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ statusCode: '400', message });
    }
    // A signed-URL token is no API credential.
    const asBearer = await fetch(`${stack.url}/storage/v1/bucket`, {
      headers: { apikey: stack.status.anon_key, authorization: `Bearer ${token}` },
    });
    expect(asBearer.status).toBe(401);
  });

  it('refuses path traversal, backslashes and NUL in keys', async () => {
    const service = client(stack, 'service_role');
    // Dot segments and backslashes never leave supabase-js as written (its URL parser folds them):
    // the raw requests below send them as an attacker would.
    for (const name of [`${alice}/x\u0000.pdf`, `${alice}/x\u0007.pdf`]) {
      const { error } = await service.storage.from(BUCKET).upload(name, pdf);
      expect(error, name).not.toBeNull();
    }
    const headers = {
      apikey: stack.status.service_role_key,
      authorization: `Bearer ${stack.status.service_role_key}`,
    };
    const bobsToken = await stack.ctx.keys.sign(
      { sub: bob, role: 'authenticated', aud: 'authenticated' },
      60,
    );
    const asBob = { apikey: stack.status.anon_key, authorization: `Bearer ${bobsToken}` };
    expect(await rawGet(`/storage/v1/object/${BUCKET}/${bob}/b.pdf`, asBob)).toBe(200);
    for (const path of [
      `/object/${BUCKET}/${bob}/../${alice}/a.pdf`,
      `/object/${BUCKET}/${bob}/%2e%2e/${alice}/a.pdf`,
      `/object/${BUCKET}/${bob}/%2E./${alice}/a.pdf`,
    ]) {
      expect(await rawGet(`/storage/v1${path}`, asBob), path).toBe(400);
    }
    for (const path of [
      `/object/${BUCKET}/${alice}/..%2f${bob}/b.pdf`,
      `/object/${BUCKET}/${alice}%5c..%5cb.pdf`,
      `/object/${BUCKET}/${alice}/a.pdf%00`,
      `/object/${BUCKET}/%2e%2e/${alice}/a.pdf`,
    ]) {
      expect(await rawGet(`/storage/v1${path}`, headers), path).toBeGreaterThanOrEqual(400);
    }
  });

  it('lists one folder level, removes objects and upserts only when asked', async () => {
    const service = client(stack, 'service_role');
    const files = service.storage.from(BUCKET);
    await files.upload(`${bob}/2026/jan.pdf`, pdf);
    await files.upload(`${bob}/top.pdf`, pdf);
    const { data } = await files.list(bob);
    expect(data!.map((e) => [e.name, e.id === null])).toEqual([
      ['2026', true],
      ['b.pdf', false],
      ['top.pdf', false],
    ]);
    const dup = await files.upload(`${bob}/top.pdf`, pdf);
    expect(dup.error?.message).toBe('The resource already exists');
    expect(
      (await files.upload(`${bob}/top.pdf`, new TextEncoder().encode('v2'), { upsert: true })).error,
    ).toBeNull();
    expect(await (await files.download(`${bob}/top.pdf`)).data!.text()).toBe('v2');
    const removed = await files.remove([`${bob}/top.pdf`, `${bob}/2026/jan.pdf`]);
    expect(removed.data!.map((r) => r.name).sort()).toEqual([`${bob}/2026/jan.pdf`, `${bob}/top.pdf`]);
    expect((await files.download(`${bob}/top.pdf`)).error).not.toBeNull();
  });

  it('keeps buckets to the service role and answers missing buckets with 404', async () => {
    const user = await userClient(alice);
    expect((await user.storage.createBucket('mine')).error).not.toBeNull();
    expect((await user.storage.listBuckets()).data).toEqual([]);
    const { data } = await client(stack, 'service_role').storage.listBuckets();
    expect(data!.map((b) => b.id)).toContain(BUCKET);
    const missing = await client(stack, 'service_role').storage.from('nope').upload('a.txt', pdf);
    expect(missing.error?.message).toBe('Bucket not found');
  });

  it('requires an API key', async () => {
    const res = await fetch(`${stack.url}/storage/v1/bucket`);
    expect(res.status).toBe(401);
  });
});
