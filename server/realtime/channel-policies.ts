import type { Database, Queryable } from '../db/database.ts';
import { isPgError } from '../db/database.ts';
import type { SubscriberAuth } from './subscriber-auth.ts';

/** Who a check acts as: a subscriber, or the caller of the REST broadcast. */
type Actor = Pick<SubscriberAuth, 'role' | 'claims'>;

export type Extension = 'broadcast' | 'presence';

/**
 * What a private channel's subscriber may do, as Realtime's Policies struct: read = receive, write = send.
 * null = not evaluated yet (write is checked on the first send, as Realtime does).
 */
export interface ChannelPolicies {
  broadcast: { read: boolean; write: boolean | null };
  presence: { read: boolean | null; write: boolean | null };
}

/** Thrown to roll back a transaction that only tested policies, carrying its answer out. */
class Verdict<T> extends Error {
  constructor(readonly value: T) {
    super('policy check (rolled back)');
  }
}

/** Realtime's set_conn_config: the subscriber's role and claims, and the topic realtime.topic() returns. */
function actAs(tx: Queryable, auth: Actor, subTopic: string) {
  const sub = typeof auth.claims.sub === 'string' ? auth.claims.sub : '';
  return tx.query(
    `select set_config('role', $1, true), set_config('realtime.topic', $2, true),
            set_config('request.jwt.claims', $3, true), set_config('request.jwt.claim.sub', $4, true),
            set_config('request.jwt.claim.role', $1, true)`,
    [auth.role, subTopic, JSON.stringify(auth.claims), sub],
  );
}

/** Runs a check in a transaction that always rolls back: no row of it is ever kept. */
async function rolledBack<T>(db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    await db.transaction(async (tx) => {
      throw new Verdict(await fn(tx));
    });
  } catch (e) {
    if (e instanceof Verdict) {
      return e.value as T;
    }
    throw e;
  }
  throw new Error('unreachable: the policy transaction always rolls back');
}

/**
 * Read authorisation at join (Realtime's get_read_authorizations): one realtime.messages row per extension
 * is inserted by the service, then selected back as the subscriber; the rows its SELECT policies return
 * are the extensions it may receive. A policy that errors denies, never fails the server.
 */
export async function readPolicies(
  db: Database,
  auth: SubscriberAuth,
  subTopic: string,
  extensions: readonly Extension[],
): Promise<Record<Extension, boolean | null>> {
  try {
    return await rolledBack(db, async (tx) => {
      const ids = new Map<Extension, string>();
      for (const extension of extensions) {
        const { rows } = await tx.query<{ id: string }>(
          'insert into realtime.messages (topic, extension, private) values ($1, $2, true) returning id',
          [subTopic, extension],
        );
        ids.set(extension, rows[0]!.id);
      }
      await actAs(tx, auth, subTopic);
      const { rows } = await tx.query<{ id: string }>(
        'select id from realtime.messages where id = any($1::uuid[])',
        [[...ids.values()]],
      );
      const seen = new Set(rows.map((r) => r.id));
      return {
        broadcast: ids.has('broadcast') ? seen.has(ids.get('broadcast')!) : null,
        presence: ids.has('presence') ? seen.has(ids.get('presence')!) : null,
      };
    });
  } catch (e) {
    if (isPgError(e)) {
      console.warn('realtime: RlsPolicyError', e.message);
      return { broadcast: false, presence: extensions.includes('presence') ? false : null };
    }
    throw e;
  }
}

/** Write authorisation (Realtime's get_write_authorizations): may the subscriber INSERT the extension's row? */
export async function mayWrite(
  db: Database,
  auth: Actor,
  subTopic: string,
  extension: Extension,
): Promise<boolean> {
  try {
    return await rolledBack(db, async (tx) => {
      await actAs(tx, auth, subTopic);
      await tx.query('insert into realtime.messages (topic, extension, private) values ($1, $2, true)', [
        subTopic,
        extension,
      ]);
      return true;
    });
  } catch (e) {
    // Refused by a policy (42501), or a policy that errors: either way the subscriber may not send.
    if (isPgError(e)) {
      if (e.code !== '42501') {
        console.warn('realtime: RlsPolicyError', e.message);
      }
      return false;
    }
    throw e;
  }
}
