import { describe, expect, it } from 'vitest';
import { parseNodeTree } from './node-tree.ts';
import { expandColumns, viewKeyDependencies, type TableKey, type ViewSource } from './view-keys.ts';

// A rewrite rule as PostgreSQL prints it (ev_action::text), trimmed to the fields that matter: names with
// escaped spaces and brackets, a Const's byte list, a column with no table origin.
const entry = (resno: number, name: string, tbl: number, col: number) =>
  `{TARGETENTRY :expr {VAR :varno 1 :varattno ${col} :location -1} :resno ${resno} :resname ${name} ` +
  `:ressortgroupref 0 :resorigtbl ${tbl} :resorigcol ${col} :resjunk false}`;
const rule = (...entries: string[]) =>
  `({QUERY :commandType 1 :rtable ({RANGETBLENTRY :eref {ALIAS :aliasname t :colnames ("id" "a\\ b")}}) ` +
  `:jointree {FROMEXPR :quals {CONST :constlen -1 :constvalue 11 [ 44 0 0 0 37 123 125 40 120 41 37 ]}} ` +
  `:targetList (${entries.join(' ')}) :sortClause <>})`;

const pk = (table: number, columns: number[], names: string[]): TableKey => ({
  name: `t${table}_pkey`,
  type: 'p',
  table,
  tableSchema: 'public',
  tableName: `t${table}`,
  columns,
  columnNames: names,
  refTable: null,
  refSchema: null,
  refName: null,
  refColumns: null,
  refColumnNames: null,
  oneToOne: false,
});

describe('pg_node_tree', () => {
  it('reads nodes, lists, NULL and escaped names', () => {
    const tree = parseNodeTree(rule(entry(1, 'i\\(d\\)', 100, 1)));
    expect(Array.isArray(tree)).toBe(true);
    const query = (tree as unknown as [{ fields: Map<string, unknown> }])[0];
    expect(query.fields.get('sortClause')).toBeNull();
    const [target] = query.fields.get('targetList') as [{ fields: Map<string, unknown> }];
    expect(target.fields.get('resname')).toBe('i(d)');
    expect(target.fields.get('resorigtbl')).toBe('100');
  });

  it('refuses text that is not a node tree', () => {
    expect(() => parseNodeTree('({QUERY :targetList (')).toThrow();
  });
});

describe('view key dependencies', () => {
  const view = (oid: number, name: string, columns: string[], action: string): ViewSource => ({
    oid,
    schema: 'public',
    name,
    columns,
    action,
  });

  it('follows views of views to the table and keeps every view column showing a key column', () => {
    const inner = view(200, 'v_inner', ['a', 'b'], rule(entry(1, 'a', 100, 1), entry(2, 'b', 100, 2)));
    const outer = view(
      201,
      'v_outer',
      ['x1', 'x2', 'y', 'z'],
      rule(entry(1, 'x1', 200, 1), entry(2, 'x2', 200, 1), entry(3, 'y', 200, 2), entry(4, 'z', 0, 0)),
    );
    const deps = viewKeyDependencies('public', [inner, outer], [pk(100, [1, 2], ['id', 'k'])]);
    expect(deps.find((d) => d.view === 'v_outer')?.columns).toEqual([
      ['id', ['x1', 'x2']],
      ['k', ['y']],
    ]);
    expect(expandColumns(deps.find((d) => d.view === 'v_outer')!.columns)).toEqual([
      [
        ['id', 'x1'],
        ['k', 'y'],
      ],
      [
        ['id', 'x2'],
        ['k', 'y'],
      ],
    ]);
  });

  it('gives no key when a view shows only part of it, and survives a definition it cannot read', () => {
    const partial = view(300, 'v_partial', ['a'], rule(entry(1, 'a', 100, 1)));
    const broken = view(301, 'v_broken', ['a'], '({QUERY');
    expect(viewKeyDependencies('public', [partial, broken], [pk(100, [1, 2], ['id', 'k'])])).toEqual([]);
  });
});
