// What the repository cites, checked so that a newcomer can follow every citation from its own files:
// - no file cites the project's documents that live outside the repository (the product specification,
//   the wire contract, the architecture and style notes, the issue tracker); what the code needs of
//   them is in docs/ (docs/product.md, docs/reference/, docs/architecture.md);
// - every "docs/<file>.md §N" citation names a file and a numbered section that exist, and every
//   relative Markdown link in docs/ and README.md reaches a file, so citations cannot rot.
// scripts/outside-citations.test.ts runs these over every tracked file.

/** One thing wrong with a citation, where it stands. */
export interface CitationProblem {
  file: string;
  line: number;
  text: string;
  why: string;
}

/**
 * Ways the outside documents have been cited. Each names its document, so an ordinary word ("spec" in
 * `parsePorts(spec)`, a standard's "§" in an RFC citation, `import … from '../shared/x.ts'`) never matches.
 */
export const OUTSIDE_CITATIONS: readonly { pattern: RegExp; document: string }[] = [
  { pattern: /\bSPEC(?:\.md)?\b/, document: 'the product specification' },
  { pattern: /\bspec(?:'s)?\s+(?:points?\s+\d|§)/i, document: 'the product specification' },
  { pattern: /\bwire[\s-]contract\b/i, document: 'the wire contract' },
  { pattern: /\bARCHITECTURE(?:\.md\b|\s*§)/, document: 'the architecture notes' },
  { pattern: /\bSTYLE\.md\b/, document: 'the style notes' },
  { pattern: /(?:^|[\s'"`(/])shared\/(?:spec|reference)\//, document: 'the shared documents folder' },
  { pattern: /\/work\/shared\b/, document: 'the shared documents folder' },
  // Not a quoted id: vulnerability data names its own trackers' issues ('issue 11974').
  { pattern: /(?<!['"])\b[Ii]ssues?\s+#?\d+\b/, document: 'the issue tracker' },
];

/** Lines of `text` that cite a document outside the repository. */
export function outsideCitations(file: string, text: string): CitationProblem[] {
  const problems: CitationProblem[] = [];
  text.split('\n').forEach((line, i) => {
    for (const { pattern, document } of OUTSIDE_CITATIONS) {
      if (pattern.test(line)) {
        problems.push({
          file,
          line: i + 1,
          text: line.trim(),
          why: `cites ${document}, outside the repository`,
        });
        break;
      }
    }
  });
  return problems;
}

/** A citation of our own docs: "docs/product.md §5", "docs/product.md §4, §5 and §8". */
const DOCS_CITATION =
  /(?<![\w/.-])docs\/((?:[\w.-]+\/)*[\w.-]+\.md)((?:(?:\s*,\s*|\s+and\s+|\s+)§\s?\d+(?:\.\d+)*)*)/g;
const SECTION = /§\s?(\d+(?:\.\d+)*)/g;
/** A numbered heading: "## 5. Validation", "### 2.3 Landing page". */
const NUMBERED_HEADING = /^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/;

/** The section numbers a Markdown document's headings carry. */
export function sectionNumbers(markdown: string): Set<string> {
  const numbers = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      fenced = !fenced;
    }
    const m = fenced ? null : NUMBERED_HEADING.exec(line);
    if (m?.[1]) {
      numbers.add(m[1]);
    }
  }
  return numbers;
}

/**
 * Each citation of our docs in `text`: the cited file (from the repository root) and, for "docs/… §N", each
 * section (null for a mention of the file alone).
 */
export function docsCitations(text: string): { line: number; target: string; section: string | null }[] {
  const found: { line: number; target: string; section: string | null }[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(DOCS_CITATION)) {
      const sections = [...(m[2] ?? '').matchAll(SECTION)].map((s) => s[1] ?? '');
      for (const section of sections.length > 0 ? sections : [null]) {
        found.push({ line: i + 1, target: `docs/${m[1]}`, section });
      }
    }
  });
  return found;
}

/**
 * Citations of our docs in `text` whose file or section does not exist. `readDoc` gives a document's
 * text from its repository path, or null when there is none.
 */
export function brokenDocsCitations(
  file: string,
  text: string,
  readDoc: (path: string) => string | null,
): CitationProblem[] {
  const lines = text.split('\n');
  return docsCitations(text).flatMap(({ line, target, section }) => {
    const doc = readDoc(target);
    const at = { file, line, text: (lines[line - 1] ?? '').trim() };
    if (doc === null) {
      return [{ ...at, why: `${target} does not exist` }];
    }
    return section === null || sectionNumbers(doc).has(section)
      ? []
      : [{ ...at, why: `${target} has no section §${section}` }];
  });
}

/** Relative Markdown links, `[text](path.md#anchor)`, with the part of the link that names a file. */
const MARKDOWN_LINK = /\[[^\]]*\]\(([^)\s]+)\)/g;

/** Relative links of a Markdown file (at repository path `file`) to files that do not exist. */
export function brokenMarkdownLinks(
  file: string,
  markdown: string,
  exists: (path: string) => boolean,
): CitationProblem[] {
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  const problems: CitationProblem[] = [];
  markdown.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(MARKDOWN_LINK)) {
      const href = m[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) {
        continue;
      }
      const target = resolvePath(dir, decodeURI(href.split('#')[0] ?? ''));
      if (target !== null && !exists(target)) {
        problems.push({
          file,
          line: i + 1,
          text: line.trim(),
          why: `links to ${target}, which does not exist`,
        });
      }
    }
  });
  return problems;
}

/** `rel` resolved against the repository folder `dir`; null when it leaves the repository. */
function resolvePath(dir: string, rel: string): string | null {
  const parts = rel.startsWith('/') ? [] : dir.split('/').filter(Boolean);
  for (const part of rel.split('/')) {
    if (part === '..') {
      if (parts.length === 0) {
        return null;
      }
      parts.pop();
    } else if (part !== '.' && part !== '') {
      parts.push(part);
    }
  }
  return parts.join('/');
}
