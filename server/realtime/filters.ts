/**
 * postgres_changes binding filters (docs/reference/realtime.md §5): `column=op.value`, several joined by `,` (AND),
 * `not.` before any operator, values double-quoted when they hold `, ( ) " \` or edge spaces. They are
 * evaluated here against each captured row with SQL's three-valued logic (a NULL comparison never matches).
 * `match`/`imatch` (regular expressions) are refused: a subscriber's pattern would run against every
 * change in the server process, where a pathological one could stall delivery for everyone.
 */
export type FilterOp =
  'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'like' | 'ilike' | 'is' | 'isdistinct';

export interface Condition {
  column: string;
  op: FilterOp;
  negate: boolean;
  /** One value, or the list of an `in`. */
  values: string[];
}

export interface ColumnType {
  name: string;
  type: string;
}

const OPS: readonly string[] = [
  'eq',
  'neq',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'like',
  'ilike',
  'is',
  'isdistinct',
];
const MAX_IN_VALUES = 100;
const MAX_LIKE_WILDCARDS = 3;

export class FilterError extends Error {}

/** Splits on `sep` outside double quotes and parentheses. */
function splitTopLevel(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (quoted && ch === '\\' && i + 1 < s.length) {
      cur += ch + (s[i + 1] as string);
      i++;
      continue;
    }
    if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === '(') {
      depth++;
    } else if (!quoted && ch === ')') {
      depth--;
    } else if (!quoted && depth === 0 && ch === sep) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (quoted || depth !== 0) {
    throw new FilterError('unbalanced quotes or parentheses in filter');
  }
  out.push(cur);
  return out;
}

function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    return v.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return v;
}

function parseCondition(part: string): Condition {
  const eq = part.indexOf('=');
  if (eq <= 0) {
    throw new FilterError(`filter "${part}" is not column=op.value`);
  }
  const column = part.slice(0, eq);
  let rest = part.slice(eq + 1);
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  const op = dot < 0 ? rest : rest.slice(0, dot);
  if (op === 'match' || op === 'imatch') {
    throw new FilterError(`filter operator "${op}" is not supported`);
  }
  if (!OPS.includes(op) || dot < 0) {
    throw new FilterError(`filter "${part}" has an unknown operator "${op}"`);
  }
  const raw = rest.slice(dot + 1);
  if (op === 'in') {
    if (!raw.startsWith('(') || !raw.endsWith(')')) {
      throw new FilterError('an in filter lists its values in parentheses');
    }
    const inner = raw.slice(1, -1);
    const values = inner === '' ? [] : splitTopLevel(inner, ',').map(unquote);
    // Realtime's own limit; it also bounds the work per change.
    if (values.length > MAX_IN_VALUES) {
      throw new FilterError(`an in filter takes at most ${MAX_IN_VALUES} values`);
    }
    return { column, op: 'in', negate, values };
  }
  const value = unquote(raw);
  // Each wildcard becomes `.*`; many of them backtrack polynomially on long values, so few are allowed.
  if ((op === 'like' || op === 'ilike') && (value.match(/[%*]/g)?.length ?? 0) > MAX_LIKE_WILDCARDS) {
    throw new FilterError(`a like pattern takes at most ${MAX_LIKE_WILDCARDS} wildcards`);
  }
  if (op === 'is' && !['null', 'true', 'false', 'unknown', 'not_null'].includes(value.toLowerCase())) {
    throw new FilterError('an is filter takes null, true, false or unknown');
  }
  return { column, op: op as FilterOp, negate, values: [value] };
}

/** Parses a binding's filter string; an empty or absent filter matches everything. */
export function parseFilter(filter: string | undefined | null): Condition[] {
  if (!filter) {
    return [];
  }
  return splitTopLevel(filter, ',').map((p) => parseCondition(p.trim()));
}

const NUMERIC = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);
const TIME = new Set(['timestamptz', 'timestamp', 'date']);

type Tri = boolean | null;

/** A row value as text: JSON values (json/jsonb columns) in their JSON form. */
const asText = (value: unknown): string =>
  typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);

/** Compares a row value with a filter literal by the column's Postgres type: <0, 0, >0, or null if incomparable. */
function compare(value: unknown, literal: string, type: string | undefined): number | null {
  if (value === null || value === undefined) {
    return null;
  }
  if (type && NUMERIC.has(type)) {
    const a = Number(value);
    const b = Number(literal);
    return Number.isNaN(a) || Number.isNaN(b) ? null : Math.sign(a - b);
  }
  if (type === 'bool') {
    const b = ['t', 'true', 'yes', 'on', '1'].includes(literal.toLowerCase());
    return Number(value === true || value === 't') - Number(b);
  }
  if (type && TIME.has(type)) {
    const a = Date.parse(asText(value).replace(' ', 'T'));
    const b = Date.parse(literal.replace(' ', 'T'));
    if (!Number.isNaN(a) && !Number.isNaN(b)) {
      return Math.sign(a - b);
    }
  }
  let a = asText(value);
  let b = literal;
  if (type === 'uuid') {
    a = a.toLowerCase();
    b = b.toLowerCase();
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function likeToRegExp(pattern: string, insensitive: boolean): RegExp {
  // PostgREST lets `*` stand for `%`; everything but the two wildcards is matched literally.
  const body = pattern
    .replace(/\*/g, '%')
    .split('')
    .map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, insensitive ? 'is' : 's');
}

function evaluate(c: Condition, row: Record<string, unknown>, type: string | undefined): Tri {
  const value = row[c.column];
  const literal = c.values[0] ?? '';
  switch (c.op) {
    case 'is': {
      const want = literal.toLowerCase();
      if (want === 'null' || want === 'unknown') {
        return value === null || value === undefined;
      }
      if (want === 'not_null') {
        return value !== null && value !== undefined;
      }
      return value === (want === 'true') || value === (want === 'true' ? 't' : 'f');
    }
    case 'isdistinct':
      return value === null || value === undefined ? true : compare(value, literal, type) !== 0;
    case 'in': {
      if (value === null || value === undefined) {
        return null;
      }
      return c.values.some((v) => compare(value, v, type) === 0);
    }
    case 'like':
    case 'ilike':
      return value === null || value === undefined
        ? null
        : likeToRegExp(literal, c.op === 'ilike').test(asText(value));
    default: {
      const d = compare(value, literal, type);
      if (d === null) {
        return null;
      }
      return { eq: d === 0, neq: d !== 0, lt: d < 0, lte: d <= 0, gt: d > 0, gte: d >= 0 }[c.op];
    }
  }
}

/** True when every condition holds for the row (unknown counts as not holding, as in SQL WHERE). */
export function rowMatches(
  conditions: Condition[],
  row: Record<string, unknown> | null,
  columns: ColumnType[],
): boolean {
  if (conditions.length === 0) {
    return true;
  }
  if (!row) {
    return false;
  }
  return conditions.every((c) => {
    const t = evaluate(c, row, columns.find((col) => col.name === c.column)?.type);
    return t === null ? false : c.negate ? !t : t;
  });
}
