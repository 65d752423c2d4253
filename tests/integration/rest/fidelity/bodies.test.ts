import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import { rest, startFidelityStack, stopFidelityStack } from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13: docs "Bulk Insert" (text/csv) and "Insertions" (form bodies), and its
// ApiRequest getPayload: a CSV body is a header line and records (cassava: quoted fields with "", blank
// lines skipped), `NULL` is null and every other value a string Postgres converts; a form body is one
// object of strings; other types are 400 PGRST102. supabase-js sends JSON only, so these go through fetch.
let stack: RunningStack;

beforeAll(async () => {
  stack = await startFidelityStack();
});
afterAll(() => stopFidelityStack(stack));

const write = (path: string, method: string, type: string, body: string, prefer = 'return=representation') =>
  rest(stack, path, {
    method,
    headers: {
      authorization: `Bearer ${stack.status.service_role_key}`,
      'content-type': type,
      prefer,
    },
    body,
  });

describe('text/csv bodies', () => {
  it('inserts every record, NULL as null, quoted fields with commas, quotes and line ends', async () => {
    const csv = 'title,priority,note\nfirst,5,NULL\n"quoted, ""title""",1,"multi\nline"\n';
    const res = await write('tickets?select=title,priority,status,note', 'POST', 'text/csv', csv);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual([
      { title: 'first', priority: 5, status: 'open', note: null },
      { title: 'quoted, "title"', priority: 1, status: 'open', note: 'multi\nline' },
    ]);
  });

  it('takes CRLF line ends and blank lines, counts, upserts, and a header alone inserts nothing', async () => {
    const counted = await write(
      'tickets',
      'POST',
      'text/csv; charset=utf-8',
      'title\r\n\r\ncrlf one\r\ncrlf two',
      'count=exact',
    );
    expect(counted.status).toBe(201);
    expect(counted.headers.get('content-range')).toBe('*/2');
    const upsert = await write(
      'languages?select=name,rank',
      'POST',
      'text/csv',
      'name,rank\nJava,10\nKotlin,3\n',
      'resolution=merge-duplicates,return=representation',
    );
    expect(upsert.status).toBe(201);
    expect(await upsert.json()).toEqual([
      { name: 'Java', rank: 10 },
      { name: 'Kotlin', rank: 3 },
    ]);
    // A header alone is an empty array, which inserts nothing (as `[]` in JSON does).
    for (const [type, body] of [
      ['text/csv', 'title\n'],
      ['application/json', '[]'],
    ] as const) {
      const empty = await write('tickets', 'POST', type, body, 'return=representation,count=exact');
      expect(empty.status).toBe(201);
      expect(empty.headers.get('content-range')).toBe('*/0');
      expect(await empty.json()).toEqual([]);
    }
  });

  it('refuses records whose fields differ from the others', async () => {
    const res = await write('tickets', 'POST', 'text/csv', 'title,priority\na,1\nb\n');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'PGRST102',
      details: null,
      hint: null,
      message: 'All lines must have same number of fields',
    });
  });
});

describe('application/x-www-form-urlencoded bodies', () => {
  it('inserts one row of the fields (+ a space, & or ; between, the last of a repeated name)', async () => {
    const res = await write(
      'tickets?select=title,priority,note',
      'POST',
      'application/x-www-form-urlencoded',
      'title=form+ticket&priority=1;priority=2&note=caf%C3%A9',
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual([{ title: 'form ticket', priority: 2, note: 'café' }]);
  });

  it('updates with the fields', async () => {
    const res = await write(
      'users?id=eq.2&select=id,catchphrase',
      'PATCH',
      'application/x-www-form-urlencoded',
      'catchphrase=hi+there',
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ id: 2, catchphrase: 'hi there' }]);
  });
});

describe('other body types', () => {
  it('are 400 PGRST102 on tables', async () => {
    const res = await write('tickets', 'POST', 'text/plain', 'title');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'PGRST102',
      details: null,
      hint: null,
      message: 'Content-Type not acceptable: text/plain',
    });
  });
});
