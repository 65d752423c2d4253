// What a file's own bytes say it is. Bodies of file probes are latin1 strings (one character per byte,
// see fileProbeInit), so magic numbers of archives can be read exactly.
export const looksHtml = (body: string) => /<html[\s>]|<!doctype html|<body[\s>]/i.test(body.slice(0, 4000));

const archiveMagic: [string, (b: string) => boolean][] = [
  ['zip archive', (b) => b.startsWith('PK\u0003\u0004') || b.startsWith('PK\u0005\u0006')],
  ['gzip archive', (b) => b.startsWith('\u001f\u008b\u0008')],
  ['bzip2 archive', (b) => /^BZh[1-9]1AY&SY/.test(b)],
  ['xz archive', (b) => b.startsWith('\u00fd7zXZ\u0000')],
  ['7-Zip archive', (b) => b.startsWith('7z\u00bc\u00af\u0027\u001c')],
  ['RAR archive', (b) => b.startsWith('Rar!\u001a\u0007')],
  ['tar archive', (b) => b.slice(257, 262) === 'ustar'],
];

/** The kind of archive the body starts with, or null. */
export function archiveKind(body: string): string | null {
  return archiveMagic.find(([, test]) => test(body))?.[0] ?? null;
}

/** A database dump: the dump tool's header, or DDL and INSERT statements in a non-HTML body. */
export function looksSqlDump(body: string): boolean {
  if (looksHtml(body)) {
    return false;
  }
  return (
    /^-- (MySQL|MariaDB) dump|^-- PostgreSQL database dump|^PRAGMA foreign_keys|^BEGIN TRANSACTION;/m.test(
      body,
    ) ||
    (/\bCREATE TABLE\b/i.test(body) && /\b(INSERT INTO|COPY \S+ .*FROM stdin)\b/i.test(body)) ||
    (body.match(/^INSERT INTO \S+ .*VALUES/gim) ?? []).length >= 2
  );
}

/** Server-side source code: what a page's backup shows instead of the page's rendered output. */
export function looksSourceCode(body: string): boolean {
  return (
    /<\?php|<\?=|<%@|<%=|<%\s|<cfset |^#!\/(usr\/)?bin\//m.test(body) ||
    /^\s*(import|from \S+ import|require|require_once|include|def|package|module\.exports|using System)\b/m.test(
      body,
    )
  );
}

/** A vim swap file (`.name.swp`): starts with "b0VIM" and names the edited file. */
export const looksVimSwap = (body: string) => body.startsWith('b0VIM');

/** Env-style `KEY=value` lines (two or more) outside HTML. */
export const looksEnvFile = (body: string) =>
  (body.match(/^[A-Z][A-Z0-9_]*=.*$/gm) ?? []).length >= 2 && !looksHtml(body);

/** Says what the file holds without repeating secrets: the kind of file, else its first line. */
export function describeFile(body: string): string {
  const kind = archiveKind(body);
  if (kind) {
    return kind;
  }
  if (looksVimSwap(body)) {
    const edited = /\/[\x20-\x7e]{1,120}/.exec(body.slice(0, 1200))?.[0];
    return `vim swap file${edited ? ` of ${edited}` : ''}`;
  }
  if (looksEnvFile(body)) {
    return `variables: ${(body.match(/^[A-Z][A-Z0-9_]*(?==)/gm) ?? []).slice(0, 10).join(', ')}`;
  }
  if (looksSqlDump(body)) {
    const tables = [...body.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?[`"]?([\w.]+)/gi)].map((m) => m[1]);
    return `SQL dump${tables.length ? ` (tables: ${[...new Set(tables)].slice(0, 6).join(', ')})` : ''}`;
  }
  const first = body
    .split('\n')[0]!
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim();
  return `starts with ${JSON.stringify(first.slice(0, 60))}`;
}
