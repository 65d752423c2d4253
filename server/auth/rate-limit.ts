import type { Queryable } from '../db/database.ts';

/**
 * A token bucket as GoTrue's limiter has them (tollbooth): up to `capacity` requests at once, refilled at
 * `refillPerSecond`. A request takes one token; with none left it is refused.
 */
export interface Bucket {
  capacity: number;
  refillPerSecond: number;
}

/**
 * `count` requests per `seconds`, with a burst of `count` but at most `burst` (GoTrue's buckets burst 30;
 * a configured limit under 30 is also the burst here, so "5 per 5 minutes" never lets 30 through at once).
 */
export const perInterval = (count: number, seconds: number, burst = 30): Bucket => ({
  capacity: Math.max(1, Math.min(burst, count)),
  refillPerSecond: count / seconds,
});

// The tokens a bucket holds now: what it had, refilled for the time since, up to its capacity.
const AVAILABLE = `least($2::float8, b.tokens + extract(epoch from clock_timestamp() - b.updated_at) * $3::float8)`;

/** Takes one token, atomically; answers whether the request may go on. */
const TAKE = `
insert into vigil_platform.auth_rate_limits as b (key, tokens, allowed, updated_at)
values ($1, $2::float8 - 1, $2::float8 >= 1, clock_timestamp())
on conflict (key) do update set
  tokens = case when ${AVAILABLE} >= 1 then ${AVAILABLE} - 1 else ${AVAILABLE} end,
  allowed = ${AVAILABLE} >= 1,
  updated_at = clock_timestamp()
returning allowed, tokens`;

const PEEK = `select ${AVAILABLE} as tokens from vigil_platform.auth_rate_limits b where b.key = $1`;

/** A bucket untouched for longer than it takes to refill is the same as no row: dropped now and then. */
const SWEEP = `delete from vigil_platform.auth_rate_limits where updated_at < now() - interval '1 day'`;

/**
 * The auth server's limits, per key, in the database (vigil_platform.auth_rate_limits): they hold across
 * restarts and across requests handled by any connection. Every call may be given the request's
 * transaction, so a PGlite transaction never waits for itself.
 */
export class RateLimiter {
  private calls = 0;

  constructor(private readonly db: Queryable) {}

  /** Takes one token from `key`'s bucket; false when it is empty (the request must be refused). */
  async take(key: string, bucket: Bucket, db: Queryable = this.db): Promise<boolean> {
    if (++this.calls % 1000 === 0) {
      await db.query(SWEEP);
    }
    const { rows } = await db.query<{ allowed: boolean }>(TAKE, [
      key,
      bucket.capacity,
      bucket.refillPerSecond,
    ]);
    return rows[0]?.allowed ?? false;
  }

  /** Whether `key`'s bucket has a token left, without taking it. */
  async hasToken(key: string, bucket: Bucket, db: Queryable = this.db): Promise<boolean> {
    const { rows } = await db.query<{ tokens: number }>(PEEK, [key, bucket.capacity, bucket.refillPerSecond]);
    return rows[0] === undefined || rows[0].tokens >= 1;
  }

  /**
   * Seconds the caller must still wait before another `kind` e-mail to `address` (GoTrue's max_frequency);
   * 0 records a send.
   */
  async emailWait(
    kind: string,
    address: string,
    minIntervalSeconds: number,
    db: Queryable = this.db,
  ): Promise<number> {
    if (minIntervalSeconds <= 0) {
      return 0;
    }
    const bucket = { capacity: 1, refillPerSecond: 1 / minIntervalSeconds };
    const key = `email:${kind}:${address.toLowerCase()}`;
    const { rows } = await db.query<{ allowed: boolean; tokens: number }>(TAKE, [
      key,
      bucket.capacity,
      bucket.refillPerSecond,
    ]);
    const row = rows[0];
    if (!row || row.allowed) {
      return 0;
    }
    return Math.max(1, Math.ceil((1 - row.tokens) * minIntervalSeconds));
  }
}
