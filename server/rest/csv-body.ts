import { RestError } from './errors.ts';

/**
 * A `text/csv` insert body as PostgREST reads it (cassava's decodeByName, then csvToJson): a header line,
 * records separated by `\n`, `\r\n` or `\r` (an optional one at the end), fields separated by `,`, a field
 * in double quotes with `""` for a quote; blank lines are skipped; each record is zipped with the header (a
 * short record lacks the last names, extra fields are dropped; a repeated name keeps its last field); the
 * value `NULL` is null, every other value a string. Records whose names differ are refused, as PostgREST
 * refuses them ("All lines must have same number of fields").
 */
export function csvRows(text: string): Record<string, string | null>[] {
  const records = parseCsv(text);
  // The header line needs its line end (cassava's header parser).
  if (records.length === 1 && !/[\r\n]$/.test(text)) {
    throw csvError(text.length, 'not enough input');
  }
  const header = records.shift() ?? [''];
  const rows = records
    .filter((r) => !(r.length === 1 && r[0] === ''))
    .map((r) => {
      const row: Record<string, string | null> = {};
      for (let i = 0; i < Math.min(header.length, r.length); i++) {
        row[header[i]!] = r[i] === 'NULL' ? null : r[i]!;
      }
      return row;
    });
  const keys = (row: object) => Object.keys(row).sort().join('\u0000');
  if (rows.length > 0 && rows.some((r) => keys(r) !== keys(rows[0]!))) {
    throw new RestError('PGRST102', 'All lines must have same number of fields');
  }
  return rows;
}

const csvError = (at: number, what: string) =>
  new RestError('PGRST102', `parse error (${what}) at character ${at + 1}`);

/** RFC 4180 records as cassava's parser reads them (no blank-line filtering here). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  for (;;) {
    let value = '';
    if (text[i] === '"') {
      for (i++; ; i++) {
        if (i >= text.length) {
          throw csvError(i, 'unterminated quoted field');
        }
        if (text[i] === '"') {
          if (text[i + 1] !== '"') {
            i++;
            break;
          }
          i++;
        }
        value += text[i];
      }
    } else {
      const end = text.slice(i).search(/[",\r\n]/);
      value = end < 0 ? text.slice(i) : text.slice(i, i + end);
      i = end < 0 ? text.length : i + end;
    }
    record.push(value);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (i < text.length && text[i] !== '\r' && text[i] !== '\n') {
      throw csvError(i, 'unexpected double quote');
    }
    records.push(record);
    record = [];
    i += text.startsWith('\r\n', i) ? 2 : 1;
    if (i >= text.length) {
      return records;
    }
  }
}
