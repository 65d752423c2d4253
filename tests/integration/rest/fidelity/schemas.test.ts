import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import {
  configure,
  keyClient,
  rest,
  startFidelityStack,
  stopFidelityStack,
} from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13: docs "Schemas" (db-schemas, Accept-Profile for GET/HEAD,
// Content-Profile for writes, the first schema by default) and its MultipleSchemaSpec (PGRST106 body,
// the Content-Profile response header); supabase-js sends the profile headers for `.schema('x')`.
let stack: RunningStack;
let db: SupabaseClient;

beforeAll(async () => {
  stack = await startFidelityStack();
  db = keyClient(stack);
});
afterAll(() => stopFidelityStack(stack));

describe('schemas exposed by supabase/config.toml ([api] schemas = public, graphql_public)', () => {
  it('refuses another schema with 406 PGRST106 and the list of exposed ones', async () => {
    const { error, status } = await db.schema('shop').from('products').select('*');
    expect(status).toBe(406);
    expect(error).toEqual({
      code: 'PGRST106',
      details: null,
      hint: 'Only the following schemas are exposed: public, graphql_public',
      message: 'Invalid schema: shop',
    });
  });
});

describe('schemas exposed with pgrst.db_schemas = public, shop', () => {
  beforeAll(() => configure(stack, { schemas: 'public, shop' }));

  it('reads the first schema by default and another one with .schema()', async () => {
    const pub = await db.from('products').select('name').eq('id', 1);
    expect(pub.data).toEqual([{ name: 'pixel' }]);
    const shop = await db.schema('shop').from('products').select('sku').order('id');
    expect(shop.error).toBeNull();
    expect(shop.data).toEqual([{ sku: 'SKU-10' }, { sku: 'SKU-11' }]);
    const res = await rest(stack, 'products?select=id&id=eq.1', { headers: { 'accept-profile': 'shop' } });
    expect(res.headers.get('content-profile')).toBe('shop');
    expect(await res.json()).toEqual([]);
    const def = await rest(stack, 'products?select=id&id=eq.1');
    expect(def.headers.get('content-profile')).toBe('public');
  });

  it("puts the request's schema first on the search path, so a function's unqualified names resolve there", async () => {
    // shop.product_count() counts `products` unqualified: shop.products (2 rows), not public.products (4).
    const counted = await db.schema('shop').rpc('product_count');
    expect(counted.error).toBeNull();
    expect(counted.data).toBe(2);
  });

  it('embeds, calls functions and writes in the chosen schema (Content-Profile)', async () => {
    const shop = db.schema('shop');
    const orders = await shop.from('orders').select('qty, products(sku)').order('id');
    expect(orders.data).toEqual([
      { qty: 2, products: { sku: 'SKU-10' } },
      { qty: 5, products: { sku: 'SKU-10' } },
      { qty: 1, products: { sku: 'SKU-11' } },
    ]);
    expect((await shop.rpc('order_total')).data).toBe(8);
    const inserted = await shop.from('orders').insert({ id: 4, product_id: 11, qty: 3 }).select('id, qty');
    expect(inserted).toMatchObject({ status: 201, data: [{ id: 4, qty: 3 }] });
    expect((await shop.rpc('order_total')).data).toBe(11);
    // Not a table of public: the same request without the profile finds nothing of that name.
    const missing = await db.from('orders').select('*');
    expect(missing.error).toMatchObject({ code: 'PGRST205' });
  });

  it('still refuses a schema that exists but is not exposed', async () => {
    const { error, status } = await db.schema('hidden').from('secrets').select('*');
    expect(status).toBe(406);
    expect(error).toMatchObject({
      code: 'PGRST106',
      message: 'Invalid schema: hidden',
      hint: 'Only the following schemas are exposed: public, shop',
    });
  });
});
