import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { RequestRole } from '../http/request-role.ts';
import { objectsUnder, type ObjectRow } from './objects.ts';

export const ListRequest = z.object({
  prefix: z.string().default(''),
  limit: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).default(0),
  search: z.string().default(''),
  sortBy: z
    .object({
      column: z.enum(['name', 'created_at', 'updated_at', 'last_accessed_at']).default('name'),
      order: z.enum(['asc', 'desc']).default('asc'),
    })
    .default({ column: 'name', order: 'asc' }),
});
export type ListRequest = z.infer<typeof ListRequest>;

interface Entry {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: Record<string, unknown> | null;
}

/**
 * One folder level, as Supabase Storage's list: the files directly under `prefix` and its sub-folders
 * (entries with `id: null`), only among the objects the caller may see.
 */
export async function listFolder(
  db: Database,
  who: RequestRole,
  bucket: string,
  req: ListRequest,
): Promise<Entry[]> {
  const prefix = req.prefix.replace(/^\/+|\/+$/g, '');
  const base = prefix ? `${prefix}/` : '';
  const rows = await objectsUnder(db, who, bucket, base);
  const folders = new Map<string, Entry>();
  const files: Entry[] = [];
  for (const row of rows) {
    const rest = row.name.slice(base.length);
    const slash = rest.indexOf('/');
    const entryName = slash === -1 ? rest : rest.slice(0, slash);
    if (!entryName.toLowerCase().startsWith(req.search.toLowerCase())) {
      continue;
    }
    if (slash === -1) {
      files.push(toEntry(row, entryName));
    } else if (!folders.has(entryName)) {
      folders.set(entryName, {
        name: entryName,
        id: null,
        updated_at: null,
        created_at: null,
        last_accessed_at: null,
        metadata: null,
      });
    }
  }
  const { column, order } = req.sortBy;
  const sign = order === 'asc' ? 1 : -1;
  const key = (e: Entry) => (column === 'name' ? e.name : (e[column] ?? ''));
  const sorted = [...folders.values(), ...files].sort(
    (a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0),
  );
  return sorted.slice(req.offset, req.offset + req.limit);
}

const toEntry = (row: ObjectRow, name: string): Entry => ({
  name,
  id: row.id,
  updated_at: row.updated_at,
  created_at: row.created_at,
  last_accessed_at: row.last_accessed_at,
  metadata: row.metadata,
});
