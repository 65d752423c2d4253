import type { SupabaseClient } from '@supabase/supabase-js';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import {
  ALICE,
  BOB,
  installRestFixture,
  startRestStack,
  userClient,
  userToken,
} from '../../helpers/rest-fixture.ts';

let stack: RunningStack;
let alice: SupabaseClient;
let aliceToken: string;

/** A raw request as Alice; hostile inputs that supabase-js would never build. */
const req = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${stack.url}/rest/v1/${path}`, {
    ...init,
    headers: {
      apikey: stack.status.anon_key,
      authorization: `Bearer ${aliceToken}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });

async function expectRestError(res: Response, status: number, code?: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
  if (code) {
    expect(body.code).toBe(code);
  }
  return body;
}

/** Every project row, as the service role sees it: the oracle that nothing was lost or changed. */
const snapshot = async () =>
  JSON.stringify(
    (await stack.ctx.db.query('select id, name, user_id, budget from public.rt_projects order by id')).rows,
  );

beforeAll(async () => {
  stack = await startRestStack();
  await installRestFixture(stack);
  aliceToken = await userToken(stack, ALICE);
  alice = userClient(stack, aliceToken);
  await alice.from('rt_projects').insert([{ name: 'keep-1' }, { name: 'keep-2' }]);
  await userClient(stack, await userToken(stack, BOB))
    .from('rt_projects')
    .insert({ name: 'bob-keep' });
});
afterAll(() => stack.close());

describe('/rest/v1 hostile input', () => {
  it('refuses missing keys, forged, expired and wrong-role tokens with 401', async () => {
    const noKey = await fetch(`${stack.url}/rest/v1/rt_projects`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ message: 'No API key found in request' });
    const badKey = await fetch(`${stack.url}/rest/v1/rt_projects`, { headers: { apikey: 'not-a-key' } });
    expect(badKey.status).toBe(401);
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = await exportJWK(publicKey);
    const forged = await new SignJWT({ sub: BOB, role: 'service_role' })
      .setProtectedHeader({ alg: 'ES256', kid: stack.ctx.keys.kid, jwk })
      .setExpirationTime('1h')
      .sign(privateKey);
    const forgedRes = await req('rt_projects', { headers: { authorization: `Bearer ${forged}` } });
    const forgedBody = await expectRestError(forgedRes, 401, 'PGRST301');
    expect(forgedBody.message).toBeTruthy();
    expect(forgedRes.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    const expired = await userToken(stack, ALICE, -10);
    const expiredRes = await req('rt_projects', { headers: { authorization: `Bearer ${expired}` } });
    expect(await expectRestError(expiredRes, 401, 'PGRST303')).toMatchObject({ message: 'JWT expired' });
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const claims = Buffer.from(JSON.stringify({ role: 'service_role', sub: ALICE })).toString('base64url');
    await expectRestError(
      await req('rt_projects', { headers: { authorization: `Bearer ${none}.${claims}.` } }),
      401,
      'PGRST301',
    );
    const superuser = await stack.ctx.keys.sign({ sub: ALICE, role: 'postgres' }, 3600);
    await expectRestError(
      await req('rt_projects', { headers: { authorization: `Bearer ${superuser}` } }),
      401,
      'PGRST301',
    );
  });

  it('answers unknown columns, operators and malformed filters/select/order with 400, never 500', async () => {
    const cases: [string, number, string | undefined][] = [
      ['rt_projects?select=nope', 400, '42703'],
      ['rt_projects?nope=eq.1', 400, '42703'],
      ['rt_projects?name=zz.1', 400, 'PGRST100'],
      ['rt_projects?name=eq', 400, 'PGRST100'],
      ['rt_projects?name=is.maybe', 400, 'PGRST100'],
      ['rt_projects?name=in.1,2', 400, 'PGRST100'],
      ['rt_projects?or=(name.eq.a', 400, 'PGRST100'],
      ['rt_projects?or=name.eq.a', 400, 'PGRST100'],
      ['rt_projects?or=(name.eq."a)', 400, 'PGRST100'],
      [`rt_projects?or=${'('.repeat(200)}name.eq.a${')'.repeat(200)}`, 400, 'PGRST100'],
      ['rt_projects?select=name,rt_tasks(title', 400, 'PGRST100'],
      ['rt_projects?select=name,,id', 400, 'PGRST100'],
      [`rt_projects?select=${'rt_tasks('.repeat(40)}id${')'.repeat(40)}`, 400, 'PGRST100'],
      ['rt_projects?select=id::notatype', 400, '42704'],
      ['rt_projects?select=count()', 400, 'PGRST123'],
      ['rt_projects?order=name.sideways', 400, 'PGRST100'],
      ['rt_projects?order=nope.asc', 400, '42703'],
      // PostgREST ignores a limit that is no integer and treats a negative offset as none (RangeSpec);
      // a negative limit is an unsatisfiable range.
      ['rt_projects?limit=-1', 416, 'PGRST103'],
      ['rt_projects?select=name,rt_tasks(title)&rt_tasks.limit=-1', 400, '2201W'],
      ['rt_projects?budget=gt.abc', 400, '22P02'],
      ['rt_projects?id=eq.99999999999999999999999', 400, '22003'],
      ['rt_projects?created_at=gt.yesterday-ish', 400, '22007'],
      ['rt_projects?rt_tasks.title=eq.x', 400, 'PGRST108'],
      ['rt_projects?select=name,rt_tasks(title)&rt_tasks.nope=eq.x', 400, '42703'],
      ['rt_projects?tags=cs.{unclosed', 400, '22P02'],
      ['rt_projects?body=fts(nolang).cat', 400, '42704'],
    ];
    for (const [path, status, code] of cases) {
      const res = await req(path);
      expect({ path, status: res.status }).toEqual({ path, status });
      await expectRestError(res, status, code);
    }
  });

  it('treats SQL in values, identifiers, order, select, on_conflict and RPC names as data or unknown names', async () => {
    const before = await snapshot();
    const injections = [
      `rt_projects?name=eq.${encodeURIComponent("x'; drop table public.rt_projects; --")}`,
      `rt_projects?name=in.(${encodeURIComponent("a') or 1=1 --")})`,
      `rt_projects?or=(${encodeURIComponent("name.eq.x') or true or ('")})`,
      `rt_projects?meta->>${encodeURIComponent("x'); drop table public.rt_projects; --")}=eq.1`,
      `rt_projects?select=${encodeURIComponent('"name"; drop table public.rt_projects; --')}`,
      `rt_projects?select=${encodeURIComponent('name,"x"" from pg_shadow --"')}`,
      `rt_projects?order=${encodeURIComponent('name; drop table public.rt_projects')}`,
      `rt_projects?order=${encodeURIComponent('(select 1)')}`,
      `rt_projects?select=id::${encodeURIComponent('text); drop table public.rt_projects; --')}`,
      `${encodeURIComponent('rt_projects; drop table public.rt_projects')}?select=*`,
      `rt_projects?name=like.${encodeURIComponent("%' or '1'='1")}`,
    ];
    injections.push('rt_projects?name=eq.%00', 'rt_projects?select=a%00b:name', 'rt%25?select=*');
    // An over-long alias is just a (truncated) output name.
    expect((await req(`rt_projects?select=${'x'.repeat(300)}:name`)).status).toBe(200);
    for (const path of injections) {
      const res = await req(path);
      expect(res.status, path).toBeLessThan(500);
      if (res.ok) {
        expect(await res.json(), path).toEqual([]);
      } else {
        await expectRestError(res, res.status);
      }
    }
    const upsert = await req(
      `rt_projects?on_conflict=${encodeURIComponent('id) do update set user_id = null --')}`,
      {
        method: 'POST',
        body: JSON.stringify({ name: 'x' }),
        headers: { prefer: 'resolution=merge-duplicates' },
      },
    );
    await expectRestError(upsert, 400, 'PGRST204');
    const rpc = await req(`rpc/${encodeURIComponent('rt_add(1,1); drop table public.rt_projects; --')}`, {
      method: 'POST',
      body: '{}',
    });
    await expectRestError(rpc, 404, 'PGRST202');
    const column = await req('rt_projects', {
      method: 'POST',
      body: JSON.stringify({ "name\") values ('x'); --": 'y' }),
    });
    await expectRestError(column, 400, 'PGRST204');
    const value = await alice
      .from('rt_projects')
      .insert({ name: "'); delete from public.rt_projects; --" })
      .select('name')
      .single();
    expect(value.data).toEqual({ name: "'); delete from public.rt_projects; --" });
    await stack.ctx.db.query('delete from public.rt_projects where name like $1', ["');%"]);
    expect(await snapshot()).toBe(before);
  });

  it('rejects malformed JSON, wrong body shapes, unknown body columns and oversized bodies', async () => {
    const before = await snapshot();
    await expectRestError(await req('rt_projects', { method: 'POST', body: '{"name":' }), 400, 'PGRST102');
    await expectRestError(await req('rt_projects', { method: 'POST', body: '[1,2]' }), 400, 'PGRST102');
    await expectRestError(
      await req('rt_projects', { method: 'POST', body: '[{"name":"a"},{"budget":1}]' }),
      400,
      'PGRST102',
    );
    await expectRestError(
      await req('rt_projects', { method: 'PATCH', body: '[{"name":"a"}]' }),
      400,
      'PGRST102',
    );
    await expectRestError(await req('rt_projects', { method: 'POST', body: '{"nope":1}' }), 400, 'PGRST204');
    await expectRestError(
      await req('rt_projects?columns=name,nope', { method: 'POST', body: '[{"name":"a"}]' }),
      400,
      'PGRST204',
    );
    await expectRestError(
      await req('rt_projects?id=eq.1', { method: 'PATCH', body: '{"nope":1}' }),
      400,
      'PGRST204',
    );
    await expectRestError(await req('rpc/rt_add', { method: 'POST', body: '{"a":' }), 400, 'PGRST102');
    await expectRestError(await req('rpc/rt_add', { method: 'POST', body: '{"a":"x","b":1}' }), 400, '22P02');
    await expectRestError(
      await req('rt_projects', { method: 'POST', body: '{"name":"a","budget":"lots"}' }),
      400,
      '22P02',
    );
    const big = await req('rt_projects', {
      method: 'POST',
      body: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    });
    expect(big.status).toBe(413);
    expect(await snapshot()).toBe(before);
  });

  it('refuses unknown tables, schemas, media types and methods with PostgREST errors', async () => {
    await expectRestError(await req('pg_shadow'), 404, 'PGRST205');
    await expectRestError(
      await req('rt_projects', { headers: { 'accept-profile': 'auth' } }),
      406,
      'PGRST106',
    );
    await expectRestError(
      await req('rt_projects', { method: 'POST', body: '{}', headers: { 'content-profile': 'pg_catalog' } }),
      406,
      'PGRST106',
    );
    await expectRestError(
      await req('rt_projects', { headers: { accept: 'application/xml' } }),
      406,
      'PGRST107',
    );
    expect((await req('rt_projects', { method: 'PUT', body: '{}' })).status).toBe(405);
    await expectRestError(
      await req('rt_projects', { headers: { prefer: 'handling=strict, return=everything' } }),
      400,
      'PGRST122',
    );
  });

  it("keeps other tenants' rows out of reach of filters, embeds and RPC", async () => {
    const res = await req('rt_projects?select=name&or=(user_id.neq.00000000-0000-0000-0000-000000000000)');
    const names = ((await res.json()) as { name: string }[]).map((r) => r.name);
    expect(names).not.toContain('bob-keep');
    const bobDelete = await alice.from('rt_projects').delete().eq('name', 'bob-keep').select('name');
    expect(bobDelete.data).toEqual([]);
    const viaRpc = await alice.rpc('rt_my_projects').eq('name', 'bob-keep');
    expect(viaRpc.data).toEqual([]);
    const { rows } = await stack.ctx.db.query("select 1 from public.rt_projects where name = 'bob-keep'");
    expect(rows).toHaveLength(1);
  });
});
