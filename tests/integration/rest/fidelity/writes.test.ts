import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import { keyClient, startFidelityStack } from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13: docs "Bulk insert with missing=default" and its InsertSpec/UpsertSpec;
// the sequence values follow its SQL (SqlFragment fromJsonBodyF): every element is merged over the written
// columns' defaults, evaluated once per element, so an element that gives its id still consumes one value.
let stack: RunningStack;
let service: SupabaseClient;

beforeAll(async () => {
  stack = await startFidelityStack();
  service = keyClient(stack, 'service_role');
});
afterAll(() => stack.close());

describe('bulk writes with missing=default and count=exact', () => {
  it('inserts with column defaults and the sequence values PostgREST uses, and counts the rows', async () => {
    const rows = [{ title: 'a' }, { id: 100, title: 'b', priority: 1 }, { title: 'c', status: null }];
    const inserted = await service
      .from('tickets')
      .insert(rows, { count: 'exact', defaultToNull: false })
      .select('id, title, priority, status');
    expect(inserted.error).toBeNull();
    expect(inserted.status).toBe(201);
    expect(inserted.count).toBe(3);
    expect(inserted.data).toEqual([
      { id: 1, title: 'a', priority: 3, status: 'open' },
      { id: 100, title: 'b', priority: 1, status: 'open' },
      { id: 3, title: 'c', priority: 3, status: null },
    ]);
    const next = await service.from('tickets').insert({ title: 'd' }).select('id');
    expect(next.data).toEqual([{ id: 4 }]);
    const minimal = await service
      .from('tickets')
      .insert([{ title: 'e' }, { title: 'f', note: 'n' }], { count: 'exact', defaultToNull: false });
    expect(minimal).toMatchObject({ status: 201, count: 2, data: null, error: null });
  });

  it('upserts with missing=default, counting inserted and merged rows alike', async () => {
    const upserted = await service
      .from('tickets')
      .upsert([{ id: 1, title: 'a2' }, { title: 'g' }], { count: 'exact', defaultToNull: false })
      .select('id, title, priority');
    expect(upserted.error).toBeNull();
    expect(upserted.count).toBe(2);
    // e and f took 5 and 6; the upsert's two elements consume 7 and 8.
    expect(upserted.data).toEqual([
      { id: 1, title: 'a2', priority: 3 },
      { id: 8, title: 'g', priority: 3 },
    ]);
  });
});
