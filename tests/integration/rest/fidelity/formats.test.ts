import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import { keyClient, rest, startFidelityStack } from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13: its text/csv is built by Postgres (SqlFragment asCsvF): a header of
// the first row's keys, then each row as Postgres prints a record, so quoting, NULL, jsonb and line
// breaks follow Postgres's record output; with no row the body is a lone newline (RpcSpec "returns CSV").
let stack: RunningStack;

beforeAll(async () => {
  stack = await startFidelityStack();
});
afterAll(() => stack.close());

const csv = async (path: string, method = 'GET', body?: string) => {
  const res = await rest(stack, path, {
    method,
    headers: { accept: 'text/csv', 'content-type': 'application/json' },
    ...(body ? { body } : {}),
  });
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  return res.text();
};

describe('text/csv', () => {
  it('writes NULL as nothing and quotes values with spaces, as Postgres prints a record', async () => {
    expect(await csv('users?select=id,username,status,age_range,catchphrase&id=lte.2&order=id')).toBe(
      'id,username,status,age_range,catchphrase\n1,supabot,ONLINE,,"fat cat"\n2,kiwicopple,OFFLINE,,"cat bat"',
    );
  });

  it('renders jsonb, quotes and line breaks byte for byte', async () => {
    expect(await csv('messages?select=id,message,data&id=in.(1,4)&order=id')).toBe(
      'id,message,data\n' +
        '1,"Hello World 👋","{""lang"": ""en""}"\n' +
        '4,"hello, ""quoted"", and\nmulti-line","{""a"": [1, 2]}"',
    );
  });

  it('answers an empty result with a lone newline, and function rows as rows', async () => {
    expect(await csv('users?id=eq.999')).toBe('\n');
    expect(await csv('rpc/countdown?n=2')).toBe('pgrst_scalar\n2\n1');
    expect(await csv('rpc/messages_between?lo=1&hi=2&select=id')).toBe('id\n2\n1');
  });

  it('is what supabase-js .csv() returns', async () => {
    const { data } = await keyClient(stack).from('categories').select('id,name').order('id').csv();
    expect(data).toBe('id,name\n1,electronics\n2,phones\n3,laptops');
  });
});
