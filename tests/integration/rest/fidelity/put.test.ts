import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import {
  keyClient,
  rest,
  startFidelityStack,
  stopFidelityStack,
} from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13: docs "Upsert" › "PUT" (a single-row upsert whose filters are exactly
// the primary key with eq) and its UpsertSpec "with PUT" (PGRST114 for limit/offset, 405 PGRST105 for any
// other filter or a table without primary key, 400 PGRST115 when the body's key differs from the URL's,
// 201 on insert and 200 on update with return=representation, 204 otherwise, only the body's element
// with the URL's key written, the Range header ignored). supabase-js has no PUT: raw requests.
let stack: RunningStack;

beforeAll(async () => {
  stack = await startFidelityStack();
});
afterAll(() => stopFidelityStack(stack));

const put = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  rest(stack, path, {
    method: 'PUT',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });

const error = (code: string, message: string) => ({ code, details: null, hint: null, message });

describe('PUT', () => {
  it('refuses limit/offset, filters other than the whole primary key with eq, and tables without one', async () => {
    for (const path of ['languages?name=eq.Go&limit=1', 'languages?name=eq.Go&offset=1']) {
      const res = await put(path, [{ name: 'Go', rank: 1 }]);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(
        error('PGRST114', 'limit/offset querystring parameters are not allowed for PUT'),
      );
    }
    const filters = [
      'languages?rank=eq.19',
      'languages?name=not.eq.Go',
      'languages?name=in.(Go)',
      'languages?and=(name.eq.Go)',
      'languages?name=eq.Go&rank=eq.7',
      'shifts?user_id=eq.1',
      'message_texts?message=eq.x',
    ];
    for (const path of filters) {
      const res = await put(path, [{ name: 'Go', rank: 19 }]);
      expect({ path, status: res.status }).toEqual({ path, status: 405 });
      expect(await res.json()).toEqual(
        error('PGRST105', "Filters must include all and only primary key columns with 'eq' operators"),
      );
    }
  });

  it("refuses a body whose key differs from the URL's with 400 PGRST115, writing nothing", async () => {
    for (const [path, body] of [
      ['languages?name=eq.MATLAB', [{ name: 'Perl', rank: 17 }]],
      ['shifts?user_id=eq.1&day=eq.2024-01-02', { user_id: 2, day: '2024-01-02', role: 'x' }],
    ] as const) {
      const res = await put(path, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(
        error('PGRST115', 'Payload values do not match URL in primary key column(s)'),
      );
    }
    const { data } = await keyClient(stack).from('languages').select('name').in('name', ['Perl', 'MATLAB']);
    expect(data).toEqual([]);
  });

  it('inserts (201) or replaces (200) the row with return=representation', async () => {
    const inserted = await put('languages?name=eq.Rust', [{ name: 'Rust', rank: 13 }], {
      prefer: 'return=representation',
    });
    expect(inserted.status).toBe(201);
    expect(inserted.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await inserted.json()).toEqual([{ name: 'Rust', rank: 13 }]);
    const updated = await put('shifts?user_id=eq.1&day=eq.2024-01-01', [
      { user_id: 1, day: '2024-01-01', role: 'lead' },
    ]);
    expect(updated.status).toBe(204);
    const replaced = await put(
      'languages?name=eq.Java',
      { name: 'Java', rank: 5 },
      {
        prefer: 'return=representation',
        range: '1-1',
      },
    );
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toEqual([{ name: 'Java', rank: 5 }]);
    const { data } = await keyClient(stack).from('shifts').select('role').eq('user_id', 1);
    expect(data).toEqual([{ role: 'lead' }]);
  });

  it('writes only the element with the URL key, as an object when asked', async () => {
    const res = await put(
      'languages?name=eq.Python',
      [
        { name: 'Python', rank: 3 },
        { name: 'Swift', rank: 12 },
      ],
      { prefer: 'return=representation', accept: 'application/vnd.pgrst.object+json' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.pgrst.object+json; charset=utf-8');
    expect(await res.json()).toEqual({ name: 'Python', rank: 3 });
    const { data } = await keyClient(stack).from('languages').select('name').eq('name', 'Swift');
    expect(data).toEqual([]);
  });

  it('answers 204 without a body for return=minimal, naming the preferences applied', async () => {
    const res = await put('languages?name=eq.Go', [{ name: 'Go', rank: 8 }], {
      prefer: 'return=minimal, missing=default',
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeNull();
    expect(res.headers.get('preference-applied')).toBe('return=minimal');
    expect(await res.text()).toBe('');
  });
});

describe('an unknown table', () => {
  it('answers 404 PGRST205 with the closest table as hint (PostgREST 13)', async () => {
    const { error: typo, status } = await keyClient(stack).from('user').select('*');
    expect(status).toBe(404);
    expect(typo).toEqual({
      code: 'PGRST205',
      details: null,
      hint: "Perhaps you meant the table 'public.users'",
      message: "Could not find the table 'public.user' in the schema cache",
    });
    const far = await keyClient(stack).from('zzzzqqq').select('*');
    expect(far.error).toEqual({
      code: 'PGRST205',
      details: null,
      hint: null,
      message: "Could not find the table 'public.zzzzqqq' in the schema cache",
    });
  });
});
