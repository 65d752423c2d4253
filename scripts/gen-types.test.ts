import { readFile } from 'node:fs/promises';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { openDatabase } from '../server/db/open.ts';
import type { Database, Enums, Tables, TablesInsert } from '../shared/database.types.ts';
import { generateTypes, TYPES_FILE } from './gen-types.ts';

describe('shared/database.types.ts', () => {
  it('is what `npm run gen:types` generates from the current migrations', async () => {
    const db = await openDatabase({ dataDir: 'memory' });
    try {
      const committed = await readFile(TYPES_FILE, 'utf8');
      // If this fails: run `npm run gen:types` and commit the result with the migration.
      expect(committed).toBe(await generateTypes(db));
    } finally {
      await db.close();
    }
  });

  it('types supabase-js queries: rows, inserts, enums and embedded relations', () => {
    expectTypeOf<Tables<'scan_results'>['severity_level']>().toEqualTypeOf<
      'critical' | 'high' | 'medium' | 'low' | 'info' | 'none'
    >();
    expectTypeOf<Enums<'report_type'>>().toEqualTypeOf<
      'soc_compliance' | 'penetration_test' | 'security_assessment' | 'vulnerability_scan'
    >();
    // user_id defaults to auth.uid(): the app may leave it out.
    expectTypeOf<{ name: string }>().toMatchTypeOf<TablesInsert<'report_configurations'>>();
    // Nothing is sent: the query is only built, for its type.
    const supabase = createClient<Database>('http://127.0.0.1:9', 'anon-key', {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    const reports = supabase
      .from('generated_reports')
      .select('id, status, configuration:report_configurations(name)')
      .order('generated_at', { ascending: false });
    type Row = NonNullable<Awaited<typeof reports>['data']>[number];
    expectTypeOf<Row['configuration']>().toEqualTypeOf<{ name: string } | null>();
    expect(reports).toBeDefined();
  });
});
