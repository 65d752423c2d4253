/**
 * A reader for Postgres's `pg_node_tree` text (what `pg_rewrite.ev_action::text` prints: nodeToString's
 * format, read back by Postgres's own read.c). PostgREST maps a view's columns to its tables' columns from
 * the target list of this tree; so do we (view-keys.ts).
 *
 * The format: `{NODETYPE :field value :field value …}` for a node, `(…)` for a list, `<>` for NULL, and
 * bare tokens (numbers, names) in which a backslash escapes the next character. Tokens are split on
 * whitespace and on the four bracket characters, exactly as read.c's pg_strtok splits them.
 */
export type NodeValue = string | null | NodeValue[] | TreeNode;

export interface TreeNode {
  type: string;
  fields: Map<string, NodeValue>;
}

interface Token {
  text: string;
  /** A bare token that had a backslash escape is never syntax (`\(`, `\:x`). */
  escaped: boolean;
}

const BRACKETS = new Set(['(', ')', '{', '}']);
const SPACE = new Set([' ', '\n', '\t', '\r']);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (SPACE.has(ch)) {
      i++;
    } else if (BRACKETS.has(ch)) {
      tokens.push({ text: ch, escaped: false });
      i++;
    } else {
      let value = '';
      let escaped = false;
      while (i < text.length && !SPACE.has(text[i]!) && !BRACKETS.has(text[i]!)) {
        if (text[i] === '\\' && i + 1 < text.length) {
          escaped = true;
          value += text[i + 1];
          i += 2;
        } else {
          value += text[i];
          i++;
        }
      }
      tokens.push({ text: value, escaped });
    }
  }
  return tokens;
}

const isField = (t: Token | undefined) => t !== undefined && !t.escaped && t.text.startsWith(':');

class Reader {
  private pos = 0;

  constructor(private readonly tokens: Token[]) {}

  private next(): Token {
    const t = this.tokens[this.pos++];
    if (t === undefined) {
      throw new Error('pg_node_tree: unexpected end');
    }
    return t;
  }

  value(): NodeValue {
    const t = this.next();
    if (!t.escaped && t.text === '{') {
      return this.node();
    }
    if (!t.escaped && t.text === '(') {
      const items: NodeValue[] = [];
      while (!this.at(')')) {
        items.push(this.value());
      }
      this.pos++;
      return items;
    }
    return !t.escaped && t.text === '<>' ? null : t.text;
  }

  private at(text: string): boolean {
    const t = this.tokens[this.pos];
    if (t === undefined) {
      throw new Error('pg_node_tree: unexpected end');
    }
    return !t.escaped && t.text === text;
  }

  /** After `{`: the type, then `:field` followed by its value (several tokens for e.g. a Const's bytes). */
  private node(): TreeNode {
    const type = this.next().text;
    const fields = new Map<string, NodeValue>();
    while (!this.at('}')) {
      const key = this.next();
      if (!isField(key)) {
        throw new Error(`pg_node_tree: expected a field of ${type}, got ${key.text}`);
      }
      const parts: NodeValue[] = [];
      while (!this.at('}') && !isField(this.tokens[this.pos])) {
        parts.push(this.value());
      }
      fields.set(key.text.slice(1), parts.length === 1 ? parts[0]! : parts);
    }
    this.pos++;
    return { type, fields };
  }
}

/** Parses one pg_node_tree text value (throws on text that is not one). */
export function parseNodeTree(text: string): NodeValue {
  return new Reader(tokenize(text)).value();
}

export const isTreeNode = (v: NodeValue | undefined): v is TreeNode =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
