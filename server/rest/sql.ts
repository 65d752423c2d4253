import { parseError } from './errors.ts';

/**
 * Quotes an identifier for SQL. Names reach this only after the schema cache accepted them, except
 * output aliases, which are quoted here; a NUL byte would cut the SQL text, so it is refused.
 */
export function ident(name: string): string {
  if (name.includes('\0')) {
    throw parseError('"failed to parse identifier"', 'identifiers cannot contain NUL bytes');
  }
  return `"${name.replace(/"/g, '""')}"`;
}

/** A qualified relation name in the exposed schema. */
export const qualified = (schema: string, name: string) => `${ident(schema)}.${ident(name)}`;

/** Collects bind parameters; every value from a request goes through `add`, never into the SQL text. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A Postgres array literal ({a,"b,c"}) for `= any($n)` binds; every element quoted and escaped. */
export function arrayLiteral(items: readonly string[]): string {
  return `{${items.map((i) => `"${i.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
