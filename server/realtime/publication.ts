import type { Queryable } from '../db/database.ts';
import type { PgBinding } from './peer.ts';

/**
 * Realtime's answer when a binding names no table of publication supabase_realtime, or null when every
 * binding is covered. The join still succeeds, as upstream; the client sees a `system` error.
 */
export async function unpublishedBindings(db: Queryable, bindings: PgBinding[]): Promise<string | null> {
  const { rows } = await db.query<{ schemaname: string; tablename: string }>(
    `select schemaname, tablename from pg_publication_tables where pubname = 'supabase_realtime'`,
  );
  const bad = bindings.find(
    (b) => !rows.some((r) => r.schemaname === b.schema && (b.table === null || r.tablename === b.table)),
  );
  if (!bad) {
    return null;
  }
  return (
    'Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given ' +
    `connect parameters: [event: ${bad.event}, schema: ${bad.schema}, table: ${bad.table ?? '*'}, ` +
    `filters: [${bad.conditions.map((c) => `${c.column}, ${c.op}, ${c.values.join('|')}`).join('; ')}]]`
  );
}
