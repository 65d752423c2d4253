// What the schema introspection (schema-introspect.sql.ts) returns for one schema, validated: relations and
// their columns, foreign keys, functions, views and the keys of the tables under them; and the types the
// REST layer works with (schema-cache.ts builds the cache from them, relationships.ts the relationships).
import { z } from 'zod';

const column = z.object({
  name: z.string(),
  type: z.string(),
  nullable: z.boolean(),
  default: z.string().nullable(),
  identity: z.boolean(),
  generated: z.boolean(),
});
const stringList = z
  .array(z.string())
  .nullable()
  .transform((v) => v ?? []);
const relation = z.object({
  name: z.string(),
  kind: z.string(),
  columns: z.array(column),
  pk: stringList,
  uniques: z.array(stringList),
});
const foreignKey = z.object({
  name: z.string(),
  from: z.string(),
  to: z.string(),
  fromColumns: z.array(z.string()),
  toColumns: z.array(z.string()),
  oneToOne: z.boolean(),
});
const fnArg = z.object({ name: z.string(), type: z.string(), mode: z.string() });
const fn = z.object({
  name: z.string(),
  volatility: z.string(),
  returnsSet: z.boolean(),
  returnType: z.string(),
  returnTypeKind: z.string(),
  returnColumns: z.array(column).nullable(),
  defaults: z.number(),
  rows: z.number(),
  argRelation: z.string().nullable(),
  returnRelation: z.string().nullable(),
  args: z.array(fnArg),
});
const viewSource = z.object({
  oid: z.number(),
  schema: z.string(),
  name: z.string(),
  columns: z.array(z.string()),
  action: z.string(),
});
const tableKey = z.object({
  name: z.string(),
  type: z.enum(['p', 'f']),
  table: z.number(),
  tableSchema: z.string(),
  tableName: z.string(),
  columns: z.array(z.number()),
  columnNames: z.array(z.string()),
  refTable: z.number().nullable(),
  refSchema: z.string().nullable(),
  refName: z.string().nullable(),
  refColumns: z.array(z.number()).nullable(),
  refColumnNames: z.array(z.string()).nullable(),
  oneToOne: z.boolean(),
});
export const introspection = z.object({
  relations: z.array(relation),
  fks: z.array(foreignKey),
  functions: z.array(fn),
  types: z.array(z.string()).nullable(),
  views: z.array(viewSource),
  viewKeys: z.array(tableKey),
});

export type Column = z.infer<typeof column>;
export type ForeignKey = z.infer<typeof foreignKey>;
export type FnArg = z.infer<typeof fnArg>;
export type IntrospectedFunction = z.infer<typeof fn>;
export type TableKey = z.infer<typeof tableKey>;
export type Relation = z.infer<typeof relation> & { columnMap: Map<string, Column> };

export interface RestFunction extends IntrospectedFunction {
  inArgs: FnArg[];
  /** Columns of a composite or TABLE result, when the function returns rows. */
  resultColumns: Column[] | null;
}
