import { describe, expect, it } from 'vitest';
import { csvRows } from './csv-body.ts';
import { RestError } from './errors.ts';

// cassava's decodeByName as PostgREST uses it (ApiRequest csvToJson): records zipped with the header.
describe('CSV insert bodies', () => {
  it('reads \\n, \\r\\n and \\r line ends, quoted fields, NULL, and skips blank lines', () => {
    expect(csvRows('a,b\r1,"x,""y"""\r\n\r\n"",NULL\n\n')).toEqual([
      { a: '1', b: 'x,"y"' },
      { a: '', b: null },
    ]);
  });

  it('drops fields past the header, and a repeated name keeps its last field', () => {
    expect(csvRows('a,b\n1,2,3\n')).toEqual([{ a: '1', b: '2' }]);
    expect(csvRows('a,a\n1,2\n')).toEqual([{ a: '2' }]);
  });

  it('refuses records with fewer fields, a header without a line end and stray quotes', () => {
    const refused = (text: string) => {
      try {
        csvRows(text);
      } catch (e) {
        return e instanceof RestError ? [e.status, e.code] : e;
      }
      return null;
    };
    expect(refused('a,b\n1\n2,3\n')).toEqual([400, 'PGRST102']);
    expect(refused('a,b')).toEqual([400, 'PGRST102']);
    expect(refused('a\nx"y\n')).toEqual([400, 'PGRST102']);
    expect(refused('a\n"open\n')).toEqual([400, 'PGRST102']);
  });
});
