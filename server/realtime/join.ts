import { z } from 'zod';
import { FilterError, parseFilter } from './filters.ts';
import type { PgBinding } from './peer.ts';

const MAX_BINDINGS = 100;

const bindingSchema = z
  .object({
    event: z.string(),
    schema: z.string().min(1).max(63),
    table: z.string().min(1).max(63).nullish(),
    filter: z.string().max(4096).nullish(),
  })
  .loose();

/** phx_join's payload (docs/reference/realtime.md §4); unknown fields (replay, replication_ready, …) pass through. */
export const joinPayloadSchema = z
  .object({
    config: z
      .object({
        broadcast: z.object({ self: z.boolean().optional(), ack: z.boolean().optional() }).loose().nullish(),
        presence: z
          .object({ key: z.string().max(255).optional(), enabled: z.boolean().optional() })
          .loose()
          .nullish(),
        postgres_changes: z.array(bindingSchema).max(MAX_BINDINGS).nullish(),
        private: z.boolean().nullish(),
      })
      .loose()
      .default({}),
    access_token: z.string().nullish(),
  })
  .loose();

export type JoinPayload = z.infer<typeof joinPayloadSchema>;
type RawBinding = z.infer<typeof bindingSchema>;

const EVENTS = ['*', 'INSERT', 'UPDATE', 'DELETE'] as const;

/** A stable integer id per binding, as Realtime's `:erlang.phash2(params)` is (FNV-1a, 31 bits). */
function bindingId(b: RawBinding): number {
  const text = JSON.stringify([b.event, b.schema, b.table ?? null, b.filter ?? null]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 1;
}

export interface ParsedBindings {
  bindings: PgBinding[];
  /** The join reply's postgres_changes: each binding echoed byte-for-byte, plus its id. */
  reply: Record<string, unknown>[];
}

/** Validates the bindings; throws FilterError with a reason the join error reply can carry. */
export function parseBindings(raw: RawBinding[]): ParsedBindings {
  const bindings: PgBinding[] = [];
  const reply: Record<string, unknown>[] = [];
  for (const b of raw) {
    const event = EVENTS.find((e) => e === b.event);
    if (!event) {
      throw new FilterError(`event must be one of ${EVENTS.join(', ')}, got "${b.event}"`);
    }
    const id = bindingId(b);
    bindings.push({
      id,
      event,
      schema: b.schema,
      table: !b.table || b.table === '*' ? null : b.table,
      conditions: parseFilter(b.filter),
    });
    // The client compares event/schema/table/filter by value and index: echo them exactly as sent.
    const echo: Record<string, unknown> = { event: b.event, schema: b.schema };
    if (b.table !== undefined) {
      echo.table = b.table;
    }
    if (b.filter !== undefined) {
      echo.filter = b.filter;
    }
    reply.push({ ...echo, id });
  }
  return { bindings, reply };
}
