import { parseError } from '../errors.ts';
import { Cursor, fieldFrom, parseField, type Field } from './field.ts';

export const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'is',
  'isdistinct',
  'in',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
] as const;
export type Operator = (typeof OPERATORS)[number];

const QUANTIFIABLE: readonly string[] = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
];
const TEXT_SEARCH: readonly string[] = ['fts', 'plfts', 'phfts', 'wfts'];
const IS_VALUES: readonly string[] = ['null', 'true', 'false', 'unknown', 'not_null'];
const MAX_DEPTH = 16;

export interface Condition {
  kind: 'condition';
  field: Field;
  negate: boolean;
  op: Operator;
  quantifier: 'any' | 'all' | null;
  /** Text-search configuration, e.g. `english` in `fts(english)`. */
  config: string | null;
  /** The operand; a list for `in` and quantified operators. */
  value: string | string[];
}

export interface Logic {
  kind: 'logic';
  op: 'and' | 'or';
  negate: boolean;
  children: FilterNode[];
}

export type FilterNode = Condition | Logic;

/** Splits `a,"b,c",(d,e)` on commas outside quotes and parentheses. */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && quoted) {
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === '(') {
      depth++;
    } else if (!quoted && ch === ')') {
      depth--;
    } else if (!quoted && depth === 0 && ch === ',') {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quoted || depth !== 0) {
    throw parseError(`"failed to parse logic tree (${text})"`, 'unbalanced quotes or parentheses');
  }
  parts.push(text.slice(start));
  return parts;
}

/** `"a\"b"` → `a"b`; unquoted values are kept as they are. */
const unquote = (v: string) =>
  v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;

function parseList(v: string, what: string): string[] {
  if (!v.startsWith('(') || !v.endsWith(')')) {
    throw parseError(`"failed to parse filter (${what})"`, 'expecting a list such as (a,b)');
  }
  const inner = v.slice(1, -1);
  return inner === '' ? [] : splitTopLevel(inner).map(unquote);
}

/** Parses `[not.]op[(mod)].value` for a known field. */
export function parseOperation(field: Field, text: string, inLogicTree = false): Condition {
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const m = /^([a-z]+)(?:\(([a-z_]+)\))?\./.exec(rest);
  const op = m?.[1] as Operator | undefined;
  if (!m || !op || !(OPERATORS as readonly string[]).includes(op)) {
    throw parseError(`"failed to parse filter (${text})"`, `unknown or missing operator in "${text}"`);
  }
  const modifier = m[2] ?? null;
  const raw = rest.slice(m[0].length);
  const value = inLogicTree ? unquote(raw) : raw;
  let quantifier: Condition['quantifier'] = null;
  let config: string | null = null;
  if (modifier === 'any' || modifier === 'all') {
    if (!QUANTIFIABLE.includes(op)) {
      throw parseError(`"failed to parse filter (${text})"`, `${op} takes no (${modifier}) modifier`);
    }
    quantifier = modifier;
  } else if (modifier !== null) {
    if (!TEXT_SEARCH.includes(op)) {
      throw parseError(`"failed to parse filter (${text})"`, `${op} takes no (${modifier}) modifier`);
    }
    config = modifier;
  }
  if (op === 'is' && !IS_VALUES.includes(value.toLowerCase())) {
    throw parseError(`"failed to parse filter (${text})"`, 'is takes null, not_null, true, false or unknown');
  }
  if (op === 'in') {
    return { kind: 'condition', field, negate, op, quantifier, config, value: parseList(raw, text) };
  }
  if (quantifier) {
    const list = raw.startsWith('{') && raw.endsWith('}') ? `(${raw.slice(1, -1)})` : raw;
    return { kind: 'condition', field, negate, op, quantifier, config, value: parseList(list, text) };
  }
  return { kind: 'condition', field, negate, op, quantifier, config, value };
}

/** A query parameter `field=op.value`. */
export const parseFilterParam = (key: string, value: string): Condition =>
  parseOperation(fieldFrom(key), value);

function parseLogicItem(item: string, depth: number): FilterNode {
  const m = /^(not\.)?(and|or)\(/.exec(item);
  if (m) {
    if (!item.endsWith(')')) {
      throw parseError(`"failed to parse logic tree (${item})"`, 'missing closing parenthesis');
    }
    return parseLogicBody(m[2] as 'and' | 'or', Boolean(m[1]), item.slice(m[0].length - 1), depth + 1);
  }
  const c = new Cursor(item);
  const field = parseField(c);
  if (!c.eat('.')) {
    throw parseError(`"failed to parse logic tree (${item})"`, 'expecting field.operator.value');
  }
  return parseOperation(field, item.slice(c.pos), true);
}

function parseLogicBody(op: 'and' | 'or', negate: boolean, body: string, depth: number): Logic {
  // Bounds recursion so a hostile filter cannot exhaust the stack.
  if (depth > MAX_DEPTH) {
    throw parseError('"failed to parse logic tree"', `at most ${MAX_DEPTH} nested and/or groups`);
  }
  if (!body.startsWith('(') || !body.endsWith(')') || body.length < 3) {
    throw parseError(`"failed to parse logic tree (${body})"`, 'expecting (filter,filter,…)');
  }
  const children = splitTopLevel(body.slice(1, -1)).map((i) => parseLogicItem(i, depth));
  return { kind: 'logic', op, negate, children };
}

/** A query parameter `or=(…)`, `and=(…)`, `not.or=(…)`. */
export const parseLogicParam = (key: 'and' | 'or', negate: boolean, value: string): Logic =>
  parseLogicBody(key, negate, value, 0);
