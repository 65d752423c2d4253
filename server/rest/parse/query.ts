import { parseError } from '../errors.ts';
import { fieldFrom, type Field } from './field.ts';
import { OPERATORS, parseFilterParam, parseLogicParam, type FilterNode } from './filter.ts';
import { parseSelect, type SelectItem } from './select.ts';

export interface OrderTerm {
  /** `rel(col)`: a column of the to-one resource embedded as `rel` (PostgREST's OrderRelationTerm). */
  relation: string | null;
  field: Field;
  direction: 'asc' | 'desc' | null;
  nulls: 'first' | 'last' | null;
}

/** Filters (ANDed), order and paging for the root (path '') or one embedded resource ('rel', 'rel.sub'). */
export interface NodeOptions {
  filters: FilterNode[];
  order: OrderTerm[];
  limit: number | null;
  offset: number | null;
}

export interface ParsedQuery {
  select: SelectItem[];
  /** Whether the request named its columns (mutations return everything otherwise). */
  hasSelect: boolean;
  nodes: Map<string, NodeOptions>;
  columns: string[] | null;
  onConflict: string[] | null;
  /** Parameters that are not filters, for RPC arguments (GET /rpc/fn?a=1): PostgREST's NoOpExpr. */
  rest: [string, string][];
}

const RESERVED = new Set(['select', 'columns', 'on_conflict', 'apikey']);

// `col`, or `rel(col)`, each with an optional JSON path, then `.asc|.desc` and `.nullsfirst|.nullslast`.
const ORDER_TERM = /^(?:([^().,]+)\(([^()]+)\)|([^()]+?))(?:\.(asc|desc))?(?:\.(nullsfirst|nullslast))?$/;

function parseOrder(text: string): OrderTerm[] {
  return text.split(',').map((term) => {
    const m = ORDER_TERM.exec(term);
    const column = m?.[2] ?? m?.[3];
    if (!m || !column) {
      throw parseError(
        `"failed to parse order (${text})"`,
        'expecting column[.asc|.desc][.nullsfirst|.nullslast] or relation(column)[…]',
      );
    }
    const nulls = m[5] === 'nullsfirst' ? 'first' : m[5] === 'nullslast' ? 'last' : null;
    return {
      relation: m[1] ?? null,
      field: fieldFrom(column),
      direction: (m[4] as 'asc' | 'desc' | undefined) ?? null,
      nulls,
    };
  });
}

/** `[not.]op[(modifier)].` at the start of a value: what PostgREST's filter parser accepts as an operator. */
const looksLikeFilter = (value: string) => {
  const m = /^(?:not\.)?([a-z]+)(?:\([a-z_]+\))?\./.exec(value);
  return m !== null && (OPERATORS as readonly string[]).includes(m[1]!);
};

/**
 * limit/offset values as PostgREST reads them (readMaybe): an integer, else the parameter is ignored; they
 * become bind parameters, never SQL text. Negative values are judged with the range (parse/range.ts).
 */
function parseCount(text: string): number | null {
  return /^\s*-?\d{1,15}\s*$/.test(text) ? Number(text) : null;
}

/** `"a","b"` or `a,b` → names. */
export const parseColumnList = (text: string) =>
  text
    .split(',')
    .map((c) => c.trim().replace(/^"(.*)"$/, '$1'))
    .filter((c) => c !== '');

/**
 * Splits the query string into select, per-resource options and the rest. On a
 * function read (`rpcRead`), a parameter whose value is no `op.value` filter is an argument, as in PostgREST.
 */
export function parseQuery(params: URLSearchParams, rpcRead = false): ParsedQuery {
  const nodes = new Map<string, NodeOptions>();
  const node = (path: string) => {
    let n = nodes.get(path);
    if (!n) {
      n = { filters: [], order: [], limit: null, offset: null };
      nodes.set(path, n);
    }
    return n;
  };
  node('');
  const rest: [string, string][] = [];
  for (const [key, value] of params) {
    if (RESERVED.has(key)) {
      continue;
    }
    const head = key.split('->')[0]!;
    const segments = head.split('.');
    const tail = key.slice(head.length);
    const last = segments[segments.length - 1]! + tail;
    const notLogic =
      segments.length >= 2 && segments[segments.length - 2] === 'not' && (last === 'or' || last === 'and');
    const path = segments.slice(0, notLogic ? -2 : -1).join('.');
    const target = node(path);
    if (last === 'order') {
      target.order.push(...parseOrder(value));
    } else if (last === 'limit') {
      target.limit = parseCount(value);
    } else if (last === 'offset') {
      target.offset = parseCount(value);
    } else if (last === 'or' || last === 'and') {
      target.filters.push(parseLogicParam(last, notLogic, value));
    } else if (rpcRead && path === '' && !looksLikeFilter(value)) {
      rest.push([key, value]);
    } else {
      target.filters.push(parseFilterParam(last, value));
    }
  }
  const select = params.get('select');
  const columns = params.get('columns');
  const onConflict = params.get('on_conflict');
  return {
    select: parseSelect(select),
    hasSelect: select !== null,
    nodes,
    columns: columns === null ? null : parseColumnList(columns),
    onConflict: onConflict === null ? null : parseColumnList(onConflict),
    rest,
  };
}
