import { Cursor, parseField, type Field } from './field.ts';

export type Aggregate = 'count' | 'sum' | 'avg' | 'max' | 'min';

export interface ColumnItem {
  kind: 'column';
  /** `*` for `count()` without a column. */
  field: Field;
  alias: string | null;
  cast: string | null;
  /** `col.sum()`: the aggregate applied (after `cast`), and `::type` applied to its result. */
  aggregate?: Aggregate;
  aggregateCast?: string | null;
}

export interface EmbedItem {
  kind: 'embed';
  relation: string;
  alias: string | null;
  hint: string | null;
  join: 'left' | 'inner';
  spread: boolean;
  select: SelectItem[];
}

export type SelectItem = { kind: 'star' } | ColumnItem | EmbedItem;

const MAX_DEPTH = 16;
const AGGREGATES: readonly Aggregate[] = ['count', 'sum', 'avg', 'max', 'min'];
const CAST_NAME = /[,:()!."\->]/;

/** Removes whitespace outside double quotes (postgrest-js does the same before sending). */
export const stripSpaces = (s: string) =>
  s.replace(/("[^"]*")|\s+/g, (_m, quoted: string | undefined) => quoted ?? '');

function parseItem(c: Cursor, depth: number): SelectItem {
  if (c.eat('*')) {
    return { kind: 'star' };
  }
  const spread = c.eat('...');
  let alias: string | null = null;
  let start = c.pos;
  let name = c.name();
  if (c.peek(':') && !c.peek('::')) {
    c.pos++;
    alias = name;
    start = c.pos;
    name = c.name();
  }
  // count() counts rows; PostgREST never reads `count` as an embedded resource.
  if (!spread && name === 'count' && c.eat('()')) {
    const aggregateCast = c.eat('::') ? c.name(CAST_NAME) : null;
    const field = { name: '*', path: [] };
    return { kind: 'column', field, alias, cast: null, aggregate: 'count', aggregateCast };
  }
  if (c.peek('!') || c.peek('(')) {
    return parseEmbed(c, name, alias, spread, depth);
  }
  if (spread) {
    throw c.fail('"(" after a spread relation');
  }
  c.pos = start;
  const field = parseField(c);
  const cast = c.eat('::') ? c.name(CAST_NAME) : null;
  if (c.peek('.')) {
    const aggregate = AGGREGATES.find((a) => c.peek(`.${a}()`));
    if (!aggregate) {
      throw c.fail('"," or ")"');
    }
    c.pos += aggregate.length + 3;
    const aggregateCast = c.eat('::') ? c.name(CAST_NAME) : null;
    return { kind: 'column', field, alias, cast, aggregate, aggregateCast };
  }
  return { kind: 'column', field, alias, cast };
}

function parseEmbed(
  c: Cursor,
  relation: string,
  alias: string | null,
  spread: boolean,
  depth: number,
): EmbedItem {
  let hint: string | null = null;
  let join: 'left' | 'inner' = 'left';
  while (c.eat('!')) {
    const h = c.name();
    if (h === 'inner' || h === 'left') {
      join = h;
    } else {
      hint = h;
    }
  }
  c.expect('(');
  const select = c.peek(')') ? [] : parseList(c, depth + 1);
  c.expect(')');
  return { kind: 'embed', relation, alias, hint, join, spread, select };
}

function parseList(c: Cursor, depth: number): SelectItem[] {
  // Bounds recursion so a hostile select cannot exhaust the stack.
  if (depth > MAX_DEPTH) {
    throw c.fail(`at most ${MAX_DEPTH} nested embeds`);
  }
  const items = [parseItem(c, depth)];
  while (c.eat(',')) {
    items.push(parseItem(c, depth));
  }
  return items;
}

/** Parses PostgREST's `select` parameter. */
export function parseSelect(raw: string | null): SelectItem[] {
  const text = stripSpaces(raw ?? '*');
  if (text === '') {
    return [{ kind: 'star' }];
  }
  const c = new Cursor(text);
  const items = parseList(c, 0);
  if (!c.done) {
    throw c.fail('"," or end of input');
  }
  return items;
}
