import type { Database } from '../db/database.ts';
import { readRestConfig, type RestConfig } from './config.ts';
import { restoredIntrospection } from './schema-cache-file.ts';
import {
  introspection,
  type Column,
  type FnArg,
  type ForeignKey,
  type IntrospectedFunction,
  type Relation,
  type RestFunction,
  type TableKey,
} from './introspection.ts';
import { INTROSPECT_ALL_SQL } from './schema-introspect.sql.ts';
import { buildRelationships, type Rel } from './relationships.ts';
import { viewKeyDependencies, viewPrimaryKey } from './view-keys.ts';
import { viewRelationships, type ForeignKeyEnds } from './view-relationships.ts';

export interface SchemaCache {
  schema: string;
  relations: Map<string, Relation>;
  fks: ForeignKey[];
  /** PostgREST's relationships, by the name of the relation they start from. */
  rels: Map<string, Rel[]>;
  functions: Map<string, RestFunction[]>;
  types: Set<string>;
}

const outColumn = (a: FnArg): Column => ({
  name: a.name,
  type: a.type,
  nullable: true,
  default: null,
  identity: false,
  generated: false,
});

function toFunction(f: IntrospectedFunction): RestFunction {
  const inArgs = f.args.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v');
  const outArgs = f.args.filter((a) => a.mode === 'o' || a.mode === 'b' || a.mode === 't');
  const resultColumns =
    f.returnColumns ?? (outArgs.length > 0 && f.returnType === 'record' ? outArgs.map(outColumn) : null);
  return { ...f, inArgs, resultColumns };
}

export async function introspectAll(db: Database, schemas: readonly string[]): Promise<Map<string, string>> {
  const { rows } = await db.query<{ schema: string; cache: string }>(INTROSPECT_ALL_SQL, [schemas]);
  return new Map(rows.map((r) => [r.schema, r.cache]));
}

/** Every exposed schema's cache (an empty one for a schema that does not exist). */
function toApiCache(config: RestConfig, json: Map<string, string>): ApiCache {
  return {
    config,
    schemas: new Map(
      config.schemas.map((schema) => [schema, toSchemaCache(json.get(schema) ?? null, schema)]),
    ),
  };
}

/** Reads the settings and the exposed schemas; at start-up, the copy saved at the last clean close when it still matches. */
async function load(db: Database, atStart: boolean): Promise<ApiCache> {
  const config = await readRestConfig(db);
  const saved = atStart ? await restoredIntrospection(db, config.schemas) : null;
  return toApiCache(config, saved ?? (await introspectAll(db, config.schemas)));
}

const EMPTY = { relations: [], fks: [], functions: [], types: [], views: [], viewKeys: [] };

/** The foreign keys touching the tables under the schema's views, end to end. */
const foreignKeyEnds = (keys: TableKey[]): ForeignKeyEnds[] =>
  keys.flatMap((k) =>
    k.type === 'f' && k.refSchema !== null && k.refName !== null && k.refColumnNames !== null
      ? [
          {
            cons: k.name,
            oneToOne: k.oneToOne,
            from: [k.tableSchema, k.tableName] as [string, string],
            to: [k.refSchema, k.refName] as [string, string],
            columns: k.columnNames.map((c, i): [string, string] => [c, k.refColumnNames![i]!]),
          },
        ]
      : [],
  );

/** The types a lone unnamed parameter may have for its function to be callable: a raw body fills it. */
const UNNAMED_CALLABLE = new Set(['bytea', 'json', 'jsonb', 'text', 'xml']);

/**
 * Whether PostgREST's schema cache lists a function for RPC: every parameter named, or exactly one unnamed
 * one when the first parameter is of a type a whole body can fill. A function of one unnamed `integer` (or
 * of a table's row, a computed field) cannot be called through /rpc; nor can one of two unnamed parameters.
 */
function callable(f: RestFunction): boolean {
  const unnamed = f.inArgs.filter((a) => a.name === '').length;
  return unnamed === 0 || (unnamed === 1 && UNNAMED_CALLABLE.has(f.inArgs[0]!.type));
}

function toSchemaCache(json: string | null, schema: string): SchemaCache {
  const data = introspection.parse(json === null ? EMPTY : JSON.parse(json));
  const functions = new Map<string, RestFunction[]>();
  for (const f of data.functions.map(toFunction).filter(callable)) {
    functions.set(f.name, [...(functions.get(f.name) ?? []), f]);
  }
  // Views take the keys of the tables they show (PostgREST's view key dependencies).
  const deps = viewKeyDependencies(schema, data.views, data.viewKeys);
  const relations = new Map(
    data.relations.map((r) => {
      const isView = r.kind === 'v' || r.kind === 'm';
      const pk = isView && r.pk.length === 0 ? viewPrimaryKey(deps, r.name) : r.pk;
      return [r.name, { ...r, pk, columnMap: new Map(r.columns.map((c) => [c.name, c])) }];
    }),
  );
  const viewRels = viewRelationships(schema, foreignKeyEnds(data.viewKeys), deps);
  return {
    schema,
    relations,
    fks: data.fks,
    rels: buildRelationships(relations, data.fks, data.functions, viewRels),
    functions,
    types: new Set(data.types ?? []),
  };
}

/** What every request reads: the settings and the cache of each exposed schema. */
export interface ApiCache {
  config: RestConfig;
  schemas: Map<string, SchemaCache>;
}

/** The live cache of one stack: built at start, replaced on reload. */
export class SchemaCacheHolder {
  private current: Promise<ApiCache>;

  constructor(private readonly db: Database) {
    this.current = load(db, true);
    // A failed first load must not crash the process; the next request retries.
    this.current.catch(() => undefined);
  }

  async get(): Promise<ApiCache> {
    try {
      return await this.current;
    } catch {
      return this.reload();
    }
  }

  /** Reads the settings and the schemas again (NOTIFY pgrst, 'reload schema' / 'reload config'). */
  reload(): Promise<ApiCache> {
    const next = load(this.db, false);
    this.current = next;
    next.catch(() => undefined);
    return next;
  }
}

const holders = new WeakMap<Database, SchemaCacheHolder>();

/** The schema cache of a database, created on first use. */
export function schemaCacheFor(db: Database): SchemaCacheHolder {
  let holder = holders.get(db);
  if (!holder) {
    holder = new SchemaCacheHolder(db);
    holders.set(db, holder);
  }
  return holder;
}

/** Re-reads the settings and exposed schemas (after DDL); `NOTIFY pgrst, 'reload schema'` does the same. */
export async function reloadSchemaCache(db: Database): Promise<void> {
  await schemaCacheFor(db).reload();
}

/** The schemas the stack exposes now (for saving the cache at close). */
export async function exposedSchemas(db: Database): Promise<string[]> {
  const holder = holders.get(db);
  return holder ? (await holder.get()).config.schemas : (await readRestConfig(db)).schemas;
}
