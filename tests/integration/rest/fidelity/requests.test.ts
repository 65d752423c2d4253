import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import {
  configure,
  keyClient,
  rest,
  startFidelityStack,
  stopFidelityStack,
} from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13: its RangeSpec (the Range header on GET intersected with limit/offset,
// Content-Range and 206 with a count, 416 PGRST103 with PostgREST's details and Content-Range */total,
// limit/offset that are no integers ignored, a negative offset a no-op, a negative limit refused), docs
// "Functions" › "Calling with a single unnamed parameter" and "Calling with form data" (text/xml, bytea
// bodies whole; x-www-form-urlencoded fields as named arguments; PGRST202's details for each, PGRST102 for
// another Content-Type) and "db-max-rows" (every read and embedded resource capped, writes not; supabase
// /config.toml's [api] max_rows = 1000 is what the Supabase CLI gives PostgREST). supabase-js sends none of
// these headers or bodies: raw requests.
let stack: RunningStack;

beforeAll(async () => {
  stack = await startFidelityStack();
});
afterAll(() => stopFidelityStack(stack));

const get = (path: string, headers: Record<string, string> = {}) => rest(stack, path, { headers });
const ids = async (res: Response) => ((await res.json()) as { id: number }[]).map((r) => r.id);
const rangeError = (details: string) => ({
  code: 'PGRST103',
  details,
  hint: null,
  message: 'Requested range not satisfiable',
});

describe('the Range request header', () => {
  it('selects rows on GET, with Content-Range, 206 when counted and fewer', async () => {
    const first = await get('messages?select=id&order=id', { range: '0-1', 'range-unit': 'items' });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-range')).toBe('0-1/*');
    expect(await ids(first)).toEqual([1, 2]);
    const counted = await get('messages?select=id&order=id', { range: '0-1', prefer: 'count=exact' });
    expect(counted.status).toBe(206);
    expect(counted.headers.get('content-range')).toBe('0-1/4');
    const open = await get('messages?select=id&order=id', { range: '2-' });
    expect(open.headers.get('content-range')).toBe('2-3/*');
    expect(await ids(open)).toEqual([3, 4]);
    const truncated = await get('messages?select=id&order=id', { range: '2-100' });
    expect(truncated.headers.get('content-range')).toBe('2-3/*');
  });

  it('is intersected with limit/offset, applies to function calls, and is ignored in other forms', async () => {
    const both = await get('messages?select=id&order=id&limit=3', { range: '0-1' });
    expect(await ids(both)).toEqual([1, 2]);
    const call = await get('rpc/countdown?n=5', { range: '1-2' });
    expect(call.headers.get('content-range')).toBe('1-2/*');
    expect(await call.json()).toEqual([4, 3]);
    const other = await get('messages?select=id&order=id', { range: 'items=0-1' });
    expect(await ids(other)).toEqual([1, 2, 3, 4]);
    // HEAD and writes ignore it (RFC 9110: Range is for GET).
    const head = await rest(stack, 'messages?select=id', { method: 'HEAD', headers: { range: '0-0' } });
    expect(head.headers.get('content-range')).toBe('0-3/*');
  });

  it('refuses an unsatisfiable range with 416 PGRST103', async () => {
    const backwards = await get('messages', { range: '1-0' });
    expect(backwards.status).toBe(416);
    expect(await backwards.json()).toEqual(
      rangeError('The lower boundary must be lower than or equal to the upper boundary in the Range header.'),
    );
    const beyond = await get('messages', { range: '10-20', prefer: 'count=exact' });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('*/4');
    expect(await beyond.json()).toEqual(
      rangeError('An offset of 10 was requested, but there are only 4 rows.'),
    );
  });

  it('reads limit and offset as PostgREST does', async () => {
    const negative = await get('messages?limit=-1');
    expect(negative.status).toBe(416);
    expect(await negative.json()).toEqual(rangeError('Limit should be greater than or equal to zero.'));
    expect(await ids(await get('messages?select=id&order=id&offset=-4'))).toEqual([1, 2, 3, 4]);
    expect(await ids(await get('messages?select=id&order=id&limit=two'))).toEqual([1, 2, 3, 4]);
    const none = await get('messages?select=id&limit=0');
    expect(none.headers.get('content-range')).toBe('*/*');
    expect(await none.json()).toEqual([]);
  });
});

describe('function bodies other than JSON', () => {
  const post = (fn: string, contentType: string, body: string | Uint8Array) =>
    rest(stack, `rpc/${fn}`, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('passes text/xml and application/octet-stream whole to the single xml or bytea parameter', async () => {
    const xml = await post('xml_text', 'text/xml', '<a><b>1</b></a>');
    expect(xml.status).toBe(200);
    expect(await xml.json()).toBe('<a><b>1</b></a>');
    const bytes = await post('byte_count', 'application/octet-stream', new Uint8Array([0, 255, 1, 0x61]));
    expect(await bytes.json()).toBe(4);
  });

  it('calls with form fields as named arguments, defaults applying', async () => {
    const form = 'application/x-www-form-urlencoded';
    expect(await (await post('repeat_word', form, 'word=ab&times=3')).json()).toBe('ababab');
    expect(await (await post('repeat_word', form, 'word=a%20b')).json()).toBe('a ba b');
    const missing = await post('repeat_word', form, 'nope=1');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      code: 'PGRST202',
      details:
        'Searched for the function public.repeat_word with parameter nope, but no matches were found in the schema cache.',
      message: 'Could not find the function public.repeat_word(nope) in the schema cache',
    });
  });

  it('answers 404 PGRST202 for a function without such a parameter, and 400 PGRST102 for other types', async () => {
    const xml = await post('plain_text', 'text/xml', '<a/>');
    expect(xml.status).toBe(404);
    expect(await xml.json()).toEqual({
      code: 'PGRST202',
      details:
        'Searched for the function public.plain_text with a single unnamed xml parameter, but no matches were found in the schema cache.',
      hint: null,
      message: 'Could not find the function public.plain_text in the schema cache',
    });
    const bytes = await post('echo', 'application/octet-stream', 'x');
    expect(await bytes.json()).toMatchObject({
      details:
        'Searched for the function public.echo with a single unnamed bytea parameter, but no matches were found in the schema cache.',
    });
    const other = await post('plain_text', 'application/xml', '<a/>');
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({
      code: 'PGRST102',
      details: null,
      hint: null,
      message: 'Content-Type not acceptable: application/xml',
    });
  });
});

describe('db-max-rows', () => {
  it('is [api] max_rows of supabase/config.toml (1000) by default', async () => {
    const res = await get('rpc/countdown?n=1001');
    expect(res.headers.get('content-range')).toBe('0-999/*');
    expect(((await res.json()) as number[]).length).toBe(1000);
  });

  it('caps reads and embedded resources at pgrst.db_max_rows, not writes', async () => {
    await configure(stack, { maxRows: 3 });
    try {
      const db = keyClient(stack);
      const read = await db.from('products').select('id', { count: 'exact' }).order('id');
      expect(read.status).toBe(206);
      expect(read.count).toBe(4);
      expect(read.data).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
      const embedded = await db
        .from('categories')
        .select('name, products!products_main_category_id_fkey(id)')
        .eq('id', 1)
        .order('id', { referencedTable: 'products' });
      expect(embedded.data).toEqual([{ name: 'electronics', products: [{ id: 1 }, { id: 2 }, { id: 3 }] }]);
      const rows = [1, 2, 3, 4].map((i) => ({ id: 700 + i, title: `t${i}` }));
      const written = await keyClient(stack, 'service_role').from('tickets').insert(rows).select('id');
      expect(written.data).toHaveLength(4);
    } finally {
      await configure(stack, {});
    }
  });
});
