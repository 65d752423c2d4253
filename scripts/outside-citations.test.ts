// The repository explains itself: no tracked file cites a document outside it, every "docs/… §N" citation
// names a file and a section that exist, and every relative link in the Markdown docs reaches a file
// (scripts/lib/citations.ts says what counts as each).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  brokenDocsCitations,
  brokenMarkdownLinks,
  docsCitations,
  outsideCitations,
  sectionNumbers,
} from './lib/citations.ts';

const root = path.resolve(import.meta.dirname, '..');

/** Files whose text is data, not ours to word: vulnerability feeds cite their own trackers' issues. */
const DATA_FILES = new Set(['package-lock.json', 'agents/scanners/webapp/components/data/retire.json']);
/** This check and its test spell out the citations they refuse. */
const SELF = new Set(['scripts/lib/citations.ts', 'scripts/outside-citations.test.ts']);

function trackedTextFiles(): { file: string; text: string }[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  return listed
    .split('\0')
    .filter((file) => file !== '' && !DATA_FILES.has(file) && !SELF.has(file))
    .flatMap((file) => {
      const full = path.join(root, file);
      // A tracked file deleted in the working tree is not there to read.
      if (!existsSync(full)) {
        return [];
      }
      const bytes = readFileSync(full);
      // Binary files (images, fonts, archives) cite nothing.
      return bytes.includes(0) ? [] : [{ file, text: bytes.toString('utf8') }];
    });
}

const readDoc = (file: string): string | null => {
  const full = path.join(root, file);
  return existsSync(full) ? readFileSync(full, 'utf8') : null;
};

const report = (problems: { file: string; line: number; why: string; text: string }[]) =>
  problems.map((p) => `${p.file}:${p.line}: ${p.why}\n    ${p.text}`);

describe('citations in the repository', () => {
  const files = trackedTextFiles();

  it('reads the tracked files', () => {
    expect(files.length).toBeGreaterThan(500);
    expect(files.map((f) => f.file)).toContain('docs/product.md');
  });

  it('cite no document outside the repository', () => {
    expect(report(files.flatMap(({ file, text }) => outsideCitations(file, text)))).toEqual([]);
  });

  it('cite sections of our docs that exist', () => {
    expect(report(files.flatMap(({ file, text }) => brokenDocsCitations(file, text, readDoc)))).toEqual([]);
    // The code does cite them (a pattern that matched nothing would pass vacuously).
    expect(files.flatMap(({ text }) => docsCitations(text)).length).toBeGreaterThan(100);
  });

  it('link, from the Markdown docs, to files that exist', () => {
    const markdown = files.filter(({ file }) => file === 'README.md' || /^docs\/.*\.md$/.test(file));
    const exists = (file: string) => existsSync(path.join(root, file));
    expect(report(markdown.flatMap(({ file, text }) => brokenMarkdownLinks(file, text, exists)))).toEqual([]);
  });
});

describe('the citation checks', () => {
  it('catch each way the outside documents were cited', () => {
    const planted = [
      '// The route table of SPEC point 2.',
      '// create-checkout-session (SPEC points 5 and 7)',
      '// Business constants of SPEC.md point 9',
      "/** The SPEC's start_scan names no target */",
      '// as the spec point 4 says',
      '// see spec §3',
      '// headers (wire contract §1.2)',
      '// the Wire-Contract says so',
      '// One agent worker in process (ARCHITECTURE §3)',
      '# namespaces (ARCHITECTURE.md §8)',
      '// the runtime zones of STYLE.md',
      '// see ../shared/spec/SPEC.md',
      '// read /work/shared/reference/supabase-wire-contract.md',
      '// Reports are paid (issue 14 §6)',
      '// Accessibility (Issue 3): axe-core',
    ];
    for (const line of planted) {
      expect(outsideCitations('planted.ts', line), line).toHaveLength(1);
    }
  });

  it('leave ordinary words, our own imports and public standards alone', () => {
    const clean = [
      "import { Finding } from '../shared/findings.ts';",
      'export function parsePorts(spec: string | undefined): number[] {',
      '/** A desktop entry line, with the characters the spec reserves escaped. */',
      '// SNI carries names only (RFC 6066 §3).',
      '// the route table of docs/product.md §2',
      'const STYLE = `body { margin: 0 }`;',
      '"ids": ["CVE-2020-11022"]',
      "const parseHtml = jquery.vulnerabilities.find((v) => v.ids.includes('issue 11974'));",
    ];
    for (const line of clean) {
      expect(outsideCitations('clean.ts', line), line).toEqual([]);
    }
  });

  it('read every section a citation names', () => {
    expect(
      docsCitations('// (docs/product.md §4, §5 and §8); docs/reference/rest.md §9; see docs/rules.md'),
    ).toEqual([
      { line: 1, target: 'docs/product.md', section: '4' },
      { line: 1, target: 'docs/product.md', section: '5' },
      { line: 1, target: 'docs/product.md', section: '8' },
      { line: 1, target: 'docs/reference/rest.md', section: '9' },
      { line: 1, target: 'docs/rules.md', section: null },
    ]);
    // A path that merely ends in docs/… is another project's.
    expect(docsCitations('packages/core/docs/x.md §1')).toEqual([]);
    expect(
      sectionNumbers('# Title\n## 1. One\n### 1.2 Two\n```\n## 9. In a fence\n```\n## Unnumbered'),
    ).toEqual(new Set(['1', '1.2']));
  });

  it('find a cited section or file that does not exist', () => {
    const docs: Record<string, string> = { 'docs/product.md': '## 5. Validation\n### 5.1 Forms' };
    const readPlanted = (file: string) => docs[file] ?? null;
    expect(brokenDocsCitations('a.ts', '// docs/product.md §5 and §5.1', readPlanted)).toEqual([]);
    expect(brokenDocsCitations('a.ts', '// docs/product.md §6', readPlanted)).toMatchObject([
      { file: 'a.ts', line: 1, why: 'docs/product.md has no section §6' },
    ]);
    expect(brokenDocsCitations('a.ts', '\n// docs/nowhere.md §1', readPlanted)).toMatchObject([
      { line: 2, why: 'docs/nowhere.md does not exist' },
    ]);
    expect(brokenDocsCitations('a.ts', '// see docs/gone.md', readPlanted)).toMatchObject([
      { why: 'docs/gone.md does not exist' },
    ]);
  });

  it('find a relative link to a file that does not exist', () => {
    const exists = (file: string) => file === 'docs/product.md' || file === 'README.md';
    const text = '[a](product.md) [b](../README.md#x) [c](https://example.com) [d](#here) [e](gone.md)';
    expect(brokenMarkdownLinks('docs/x.md', text, exists)).toMatchObject([
      { why: 'links to docs/gone.md, which does not exist' },
    ]);
  });
});
