import type { Database } from '../db/database.ts';
import { rowMatches, type ColumnType } from './filters.ts';
import type { RealtimeHub } from './hub.ts';
import type { ChangeEvent, ChannelPeer, PgBinding } from './peer.ts';

interface CapturedChange {
  id: number;
  schema_name: string;
  table_name: string;
  type: ChangeEvent;
  commit_timestamp: string;
  columns: ColumnType[];
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  old_full: Record<string, unknown> | null;
}

const CHANNEL = 'vigil_realtime';

// Reads and deletes in one statement: a delivered change never stays in realtime.changes.
const TAKE = `delete from realtime.changes where id <= $1 returning id, schema_name, table_name, type,
  to_char(commit_timestamp at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as commit_timestamp,
  columns, record, old_record, old_full`;

const bindingMatches = (b: PgBinding, c: CapturedChange, row: Record<string, unknown> | null) =>
  (b.event === '*' || b.event === c.type) &&
  b.schema === c.schema_name &&
  (b.table === null || b.table === c.table_name) &&
  rowMatches(b.conditions, row, c.columns);

const pick = (row: Record<string, unknown> | null, allowed: Set<string>) =>
  row ? Object.fromEntries(Object.entries(row).filter(([k]) => allowed.has(k))) : null;

/**
 * Delivers captured changes (30-realtime.sql) to the channels whose bindings match, each only if the
 * subscriber's JWT may select the row. Identical claims share one check; all subscribers of a change are
 * checked in one call of realtime.visible_columns.
 */
export async function deliverChange(db: Database, hub: RealtimeHub, c: CapturedChange): Promise<void> {
  // Filters of a DELETE see the whole old row; visibility is then decided on that row by RLS, so a
  // filter can never reveal more than the subscriber may read.
  const row = c.type === 'DELETE' ? c.old_full : c.record;
  const targets: { peer: ChannelPeer; ids: number[] }[] = [];
  for (const peer of hub.changeListeners()) {
    const ids = peer.bindings.filter((b) => bindingMatches(b, c, row)).map((b) => b.id);
    if (ids.length > 0) {
      targets.push({ peer, ids });
    }
  }
  if (targets.length === 0) {
    return;
  }
  const claimsIndex = new Map<string, number>();
  const claims: unknown[] = [];
  for (const { peer } of targets) {
    if (!claimsIndex.has(peer.auth.claimsKey)) {
      claimsIndex.set(peer.auth.claimsKey, claims.length);
      claims.push(peer.auth.claims);
    }
  }
  const { rows } = await db.query<{ v: (string[] | null)[] }>(
    'select realtime.visible_columns($1, $2, $3, $4, $5) as v',
    [c.schema_name, c.table_name, c.type, JSON.stringify(row), JSON.stringify(claims)],
  );
  const visible = rows[0]?.v ?? [];
  const cache = new Map<number, unknown>();
  for (const { peer, ids } of targets) {
    const index = claimsIndex.get(peer.auth.claimsKey) as number;
    const cols = visible[index];
    if (!cols) {
      continue;
    }
    let data = cache.get(index);
    if (!data) {
      const allowed = new Set(cols);
      data = {
        schema: c.schema_name,
        table: c.table_name,
        commit_timestamp: c.commit_timestamp,
        type: c.type,
        columns: c.columns.filter((col) => allowed.has(col.name)),
        ...(c.type === 'DELETE' ? {} : { record: pick(c.record, allowed) }),
        ...(c.type === 'INSERT' ? {} : { old_record: pick(c.old_record, allowed) }),
        errors: null,
      };
      cache.set(index, data);
    }
    peer.push('postgres_changes', { ids, data });
  }
}

/** LISTENs for captured changes and delivers them in commit-notification order; resolves to its stop. */
export async function startChangeFeed(db: Database, hub: RealtimeHub): Promise<() => Promise<void>> {
  // The capture triggers persist in the database: refresh them only when a published table, its primary
  // key or a capture trigger changed since the last refresh (one catalog query otherwise).
  const { rows: state } = await db.query<{ current: boolean }>(
    `select exists (select 1 from realtime.capture_state where fingerprint = realtime.capture_fingerprint()) as current`,
  );
  if (!state[0]?.current) {
    await db.query('select realtime.refresh_capture_triggers()');
  }
  let highest = 0;
  let draining: Promise<void> | null = null;
  let stopped = false;
  const drain = async () => {
    while (!stopped && highest > 0) {
      const upTo = highest;
      highest = 0;
      const { rows } = await db.query<CapturedChange>(TAKE, [upTo]);
      rows.sort((a, b) => Number(a.id) - Number(b.id));
      for (const change of rows) {
        try {
          await deliverChange(db, hub, change);
        } catch (e) {
          // A change that cannot be checked (its table was dropped, say) is skipped, never half-sent.
          console.error(
            `realtime: change ${change.id} on ${change.schema_name}.${change.table_name} not delivered`,
            e,
          );
        }
      }
    }
  };
  const kick = () => {
    draining ??= drain()
      .catch((e: unknown) => console.error('realtime: change feed failed', e))
      .finally(() => {
        draining = null;
        if (highest > 0 && !stopped) {
          kick();
        }
      });
  };
  const unlisten = await db.listen(CHANNEL, (payload) => {
    const id = Number(payload);
    if (Number.isSafeInteger(id) && id > highest) {
      highest = id;
      kick();
    }
  });
  // Changes captured while no stack was listening (a previous run) are stale: nobody subscribed to them.
  await db.query('delete from realtime.changes');
  return async () => {
    stopped = true;
    await unlisten();
    await draining;
  };
}
