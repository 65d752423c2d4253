import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../../server/stack.ts';
import { inStage, skipNow, type Unmet } from '../../../helpers/requirements.ts';
import {
  keyClient,
  rest,
  startFidelityStack,
  stopFidelityStack,
} from '../../../helpers/rest-fidelity-fixture.ts';

// Expectations from PostgREST 12/13: docs "Resource Representation" › GeoJSON and its PostGISSpec (a
// FeatureCollection of ST_AsGeoJSON of each row: the geometry column as the feature's geometry, the others
// as properties; embeds, RPC and return=representation alike; 400 22023 "geometry column is missing" for
// a table without one; geometry columns as GeoJSON objects in application/json too). PostgREST's SQL calls
// PostGIS's ST_AsGeoJSON, so on a database without PostGIS (PGlite cannot load it) Postgres answers that
// the function does not exist, and PostgREST passes that on: 42883, 404.
let stack: RunningStack;
let postgis = false;

beforeAll(async () => {
  stack = await startFidelityStack();
  const { rows } = await stack.ctx.db.query<{ on: boolean }>(
    "select exists (select 1 from pg_catalog.pg_extension where extname = 'postgis') as on",
  );
  postgis = rows[0]?.on === true;
});
afterAll(() => stopFidelityStack(stack));

/** Why the PostGIS tests cannot run on this database. */
const withoutPostgis = (): Unmet =>
  process.env.VIGIL_TEST_DATABASE_URL
    ? {
        requirement: 'debian:postgresql-15-postgis-3',
        detail:
          'the PostgreSQL server has no PostGIS (scripts/test-postgres.sh installs postgresql-15-postgis-3)',
      }
    : inStage('postgres', 'PGlite cannot load PostGIS');

const GEO = 'application/geo+json';
const geo = (path: string, init: RequestInit = {}) =>
  rest(stack, path, { ...init, headers: { accept: GEO, ...init.headers } });

const point = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] });
const feature = (geometry: unknown, properties: unknown) => ({ type: 'Feature', geometry, properties });
const SHOPS = [
  feature(point(-71.10044, 42.373695), { id: 1, address: '1369 Cambridge St' }),
  feature(point(-71.10543, 42.366432), { id: 2, address: '757 Massachusetts Ave' }),
  feature(point(-71.081924, 42.36437), { id: 3, address: '605 W Kendall St' }),
];
const CRS = { type: 'name', properties: { name: 'EPSG:4326' } };

describe('application/geo+json without PostGIS', () => {
  it('answers as PostgREST on a database without PostGIS: ST_AsGeoJSON does not exist', async (ctx) => {
    if (postgis) {
      skipNow(
        ctx,
        inStage('vitest', 'this database has PostGIS; PGlite, which cannot load it, is the database without'),
      );
    }
    const res = await geo('users?select=id,username');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: '42883',
      details: null,
      hint: 'No function matches the given name and argument types. You might need to add explicit type casts.',
      message: 'function st_asgeojson(record) does not exist',
    });
  });
});

describe('application/geo+json with PostGIS', () => {
  it('renders a FeatureCollection, from a selection, and an empty one', async (ctx) => {
    if (!postgis) {
      skipNow(ctx, withoutPostgis());
    }
    const res = await geo('shops?order=id');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/geo+json; charset=utf-8');
    expect(await res.json()).toEqual({ type: 'FeatureCollection', features: SHOPS });
    const selected = await geo('shops?select=id,shop_geom&id=eq.1');
    expect(await selected.json()).toEqual({
      type: 'FeatureCollection',
      features: [feature(point(-71.10044, 42.373695), { id: 1 })],
    });
    expect(await (await geo('shops?id=gt.3')).json()).toEqual({ type: 'FeatureCollection', features: [] });
  });

  it('refuses a table without a geometry column as PostGIS does (400 22023)', async (ctx) => {
    if (!postgis) {
      skipNow(ctx, withoutPostgis());
    }
    const res = await geo('users');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: '22023',
      details: null,
      hint: null,
      message: 'geometry column is missing',
    });
  });

  it('works with embedding, RPC and return=representation', async (ctx) => {
    if (!postgis) {
      skipNow(ctx, withoutPostgis());
    }
    const embedded = await geo('shops?select=*,shop_beacons(id,name,coords)&id=eq.1');
    expect(await embedded.json()).toEqual({
      type: 'FeatureCollection',
      features: [
        feature(point(-71.10044, 42.373695), {
          id: 1,
          address: '1369 Cambridge St',
          shop_beacons: [{ id: 1, name: 'Beacon-1', coords: { ...point(-71.10044, 42.373695), crs: CRS } }],
        }),
      ],
    });
    expect(await (await geo('rpc/get_shop?id=1')).json()).toEqual({
      type: 'FeatureCollection',
      features: [SHOPS[0]],
    });
    const created = await geo('shops', {
      method: 'POST',
      headers: { accept: GEO, 'content-type': 'application/json', prefer: 'return=representation' },
      body: JSON.stringify({
        id: 4,
        address: '1354 Massachusetts Ave',
        shop_geom: 'SRID=4326;POINT(-71.11834 42.373238)',
      }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/geo+json; charset=utf-8');
    expect(await created.json()).toEqual({
      type: 'FeatureCollection',
      features: [feature(point(-71.11834, 42.373238), { id: 4, address: '1354 Massachusetts Ave' })],
    });
  });

  it('shows geometry columns as GeoJSON objects in application/json', async (ctx) => {
    if (!postgis) {
      skipNow(ctx, withoutPostgis());
    }
    const { data } = await keyClient(stack).from('shops').select('*').eq('id', 1);
    expect(data).toEqual([
      { id: 1, address: '1369 Cambridge St', shop_geom: { ...point(-71.10044, 42.373695), crs: CRS } },
    ]);
  });
});
