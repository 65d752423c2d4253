import { parseError, undefinedColumn } from '../errors.ts';
import type { Field, JsonStep } from '../parse/field.ts';
import type { Condition, FilterNode } from '../parse/filter.ts';
import type { Column } from '../introspection.ts';
import { arrayLiteral, ident, type Params } from '../sql.ts';

/** What filters and column expressions at one level may refer to. */
export interface Level {
  alias: string;
  /** The relation's name as PostgREST names it in errors. */
  name: string;
  columns: Map<string, Column>;
  /** Embeds at this level by output name → the lateral alias holding their JSON (for `rel=is.null`). */
  embeds: Map<string, string>;
  /**
   * Whether a name that is no column goes to Postgres as `alias.name`, as PostgREST sends it: Postgres reads
   * it as a computed field (a function taking the row) or answers 42703 naming the alias. Levels whose
   * alias is not PostgREST's refuse such names themselves.
   */
  computedFields?: boolean;
}

/** `"alias"."col"` plus its JSON path; the keys are bind parameters. */
export function fieldSql(level: Level, field: Field, params: Params): string {
  if (!level.computedFields && !level.columns.has(field.name)) {
    throw undefinedColumn(level.name, field.name);
  }
  return jsonPathSql(`${ident(level.alias)}.${ident(field.name)}`, field.path, params);
}

/** A column expression followed by a JSON path; the keys are bind parameters. */
export function jsonPathSql(column: string, path: JsonStep[], params: Params): string {
  let sql = column;
  for (const step of path) {
    const key = /^-?\d+$/.test(step.key)
      ? `${params.add(Number(step.key))}::int`
      : `${params.add(step.key)}::text`;
    sql = `(${sql}${step.arrow}${key})`;
  }
  return sql;
}

const COMPARE: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
};
const TSQUERY: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};
const IS: Record<string, string> = {
  null: 'is null',
  not_null: 'is not null',
  true: 'is true',
  false: 'is false',
  unknown: 'is unknown',
};

/** PostgREST accepts `*` as the LIKE wildcard (it cannot be percent-encoded reliably in URLs). */
const likePattern = (op: string, v: string) => (op === 'like' || op === 'ilike' ? v.replace(/\*/g, '%') : v);

function conditionSql(level: Level, c: Condition, params: Params): string {
  const embedLateral = c.field.path.length === 0 ? level.embeds.get(c.field.name) : undefined;
  if (embedLateral !== undefined && !level.columns.has(c.field.name)) {
    // Null filtering on an embedded resource: `rel=is.null` / `rel=not.is.null`.
    if (c.op !== 'is' || (c.value !== 'null' && c.value !== 'not_null')) {
      throw parseError(
        `"failed to parse filter (${c.field.name})"`,
        'only is.null / not.is.null apply to an embedded resource',
      );
    }
    return `${c.negate ? 'not ' : ''}(${ident(embedLateral)}.pgrst_body ${IS[c.value as string]})`;
  }
  const lhs = fieldSql(level, c.field, params);
  let sql: string;
  if (c.op === 'is') {
    sql = `${lhs} ${IS[(c.value as string).toLowerCase()]}`;
  } else if (c.op === 'isdistinct') {
    sql = `${lhs} is distinct from ${params.add(c.value)}`;
  } else if (c.op === 'in') {
    sql = `${lhs} = any(${params.add(arrayLiteral(c.value as string[]))})`;
  } else if (TSQUERY[c.op]) {
    const config = c.config === null ? '' : `${params.add(c.config)}::regconfig, `;
    sql = `${lhs} @@ ${TSQUERY[c.op]}(${config}${params.add(c.value)})`;
  } else if (c.quantifier) {
    const items = (c.value as string[]).map((v) => likePattern(c.op, v));
    sql = `${lhs} ${COMPARE[c.op]} ${c.quantifier}(${params.add(arrayLiteral(items))})`;
  } else {
    let value = likePattern(c.op, c.value as string);
    if (c.op === 'ov' && value.startsWith('(') && value.endsWith(')')) {
      value = `{${value.slice(1, -1)}}`;
    }
    sql = `${lhs} ${COMPARE[c.op]} ${params.add(value)}`;
  }
  return c.negate ? `not (${sql})` : sql;
}

/** One filter tree → SQL; operators come from a fixed table, values are bind parameters. */
export function filterSql(level: Level, node: FilterNode, params: Params): string {
  if (node.kind === 'condition') {
    return conditionSql(level, node, params);
  }
  const parts = node.children.map((child) => filterSql(level, child, params));
  const joined = `(${parts.join(node.op === 'and' ? ' and ' : ' or ')})`;
  return node.negate ? `not ${joined}` : joined;
}
