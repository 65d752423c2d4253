import { parseError } from '../errors.ts';

/** `data->a->>b`: a column and an optional JSON path (`->` keeps json, `->>` gives text). */
export interface JsonStep {
  arrow: '->' | '->>';
  key: string;
}

export interface Field {
  name: string;
  path: JsonStep[];
}

/** A tiny cursor over a query-string value, shared by the select, filter and order parsers. */
export class Cursor {
  pos = 0;

  constructor(readonly text: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  eat(s: string): boolean {
    if (this.peek(s)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }

  expect(s: string): void {
    if (!this.eat(s)) {
      throw this.fail(`"${s}"`);
    }
  }

  fail(expected: string) {
    const at = this.text.slice(this.pos, this.pos + 20);
    return parseError(
      `"failed to parse ${this.text}" (line 1, column ${this.pos + 1})`,
      `unexpected ${at ? `"${at}"` : 'end of input'} expecting ${expected}`,
    );
  }

  /** An identifier: a double-quoted name or a run of characters that are not grammar symbols. */
  name(stop: RegExp = /[,:()!."\-> ]/): string {
    if (this.eat('"')) {
      const end = this.text.indexOf('"', this.pos);
      if (end < 0) {
        throw this.fail('closing quote');
      }
      const quoted = this.text.slice(this.pos, end);
      this.pos = end + 1;
      return quoted;
    }
    const start = this.pos;
    while (!this.done && !stop.test(this.text[this.pos]!)) {
      this.pos++;
    }
    if (start === this.pos) {
      throw this.fail('an identifier');
    }
    return this.text.slice(start, this.pos);
  }
}

/** Parses `col` or `col->a->>b` at the cursor. */
export function parseField(c: Cursor): Field {
  const name = c.name();
  const path: JsonStep[] = [];
  while (c.peek('->')) {
    const arrow = c.eat('->>') ? '->>' : (c.expect('->'), '->');
    const negative = c.peek('-') && /\d/.test(c.text[c.pos + 1] ?? '') ? (c.pos++, '-') : '';
    path.push({ arrow, key: negative + c.name(/[,:()!."\-> ]/) });
  }
  return { name, path };
}

/** The whole text must be one field (filter keys, order terms). */
export function fieldFrom(text: string): Field {
  const c = new Cursor(text);
  const f = parseField(c);
  if (!c.done) {
    throw c.fail('end of field');
  }
  return f;
}

/** The JSON key PostgREST names a JSON-path column after: its last key. */
export const fieldOutputName = (f: Field) => (f.path.length > 0 ? f.path[f.path.length - 1]!.key : f.name);
