// Library detection as retire.js does it, on the committed copy of its repository (data/retire.json):
// extractor regexes with a version group on the script's URL, its file name and its content, then the
// "/search/replacement/" extractors, then the SHA-1 of known files.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { retireDataSchema, versionPattern, versionPlaceholder } from './data-schema.ts';
import type { LibraryEntry, LibraryVulnerability, RetireData } from './data-schema.ts';

export interface Detection {
  library: string;
  version: string;
  /** Which extractor found it: shown in the evidence so a reader can check it. */
  how: 'url' | 'file name' | 'file content' | 'file hash';
}

interface CompiledLibrary {
  name: string;
  entry: LibraryEntry;
  uri: RegExp[];
  filename: RegExp[];
  filecontent: RegExp[];
  replace: { search: RegExp; replacement: string }[];
}

const compile = (source: string, anchored = false) => {
  const body = source.replaceAll(versionPlaceholder, versionPattern);
  return new RegExp(anchored ? `^${body}$` : body, 'g');
};

let loaded: { data: RetireData; libraries: CompiledLibrary[] } | undefined;

/** The repository, parsed and compiled once per process; a damaged file throws here, not silently. */
export function retireRepository(): { data: RetireData; libraries: CompiledLibrary[] } {
  if (!loaded) {
    const text = readFileSync(new URL('./data/retire.json', import.meta.url), 'utf8');
    const data = retireDataSchema.parse(JSON.parse(text));
    const libraries = Object.entries(data.libraries).map(([name, entry]) => ({
      name,
      entry,
      uri: (entry.uri ?? []).map((s) => compile(s)),
      filename: (entry.filename ?? []).map((s) => compile(s, true)),
      filecontent: (entry.filecontent ?? []).map((s) => compile(s)),
      replace: (entry.filecontentreplace ?? []).map((s) => {
        const [, search = '', replacement = ''] = /^\/(.*[^\\])\/([^/]+)\/$/.exec(s) ?? [];
        return { search: compile(search), replacement };
      }),
    }));
    loaded = { data, libraries };
  }
  return loaded;
}

/** "1.2.3.min" and "1.2.3-min" come from file names such as jquery-1.2.3.min.js. */
const cleanVersion = (version: string) => version.replace(/[.-]min$/, '');

function collect(
  library: string,
  patterns: RegExp[],
  text: string,
  how: Detection['how'],
  out: Detection[],
): void {
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      if (match[1]) {
        out.push({ library, version: cleanVersion(match[1]), how });
      }
    }
  }
}

function unique(detections: Detection[]): Detection[] {
  const seen = new Set<string>();
  return detections.filter(
    (d) => !seen.has(`${d.library} ${d.version}`) && seen.add(`${d.library} ${d.version}`),
  );
}

/** Libraries named with their version in a script's URL (CDN paths) or its file name. */
export function detectInUrl(url: URL): Detection[] {
  const found: Detection[] = [];
  const fileName = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  for (const library of retireRepository().libraries) {
    collect(library.name, library.uri, url.href, 'url', found);
    collect(library.name, library.filename, fileName, 'file name', found);
  }
  return unique(found);
}

/** Libraries identified from a script's text: banners and code first, then rewrites, then known hashes. */
export function detectInContent(content: string): Detection[] {
  const text = content.replace(/\r\n?/g, '\n');
  const { libraries } = retireRepository();
  const found: Detection[] = [];
  libraries.forEach((library) => collect(library.name, library.filecontent, text, 'file content', found));
  if (found.length === 0) {
    for (const library of libraries) {
      for (const { search, replacement } of library.replace) {
        for (const match of text.matchAll(search)) {
          const version = match[0].replace(new RegExp(search.source), replacement);
          found.push({ library: library.name, version: cleanVersion(version), how: 'file content' });
        }
      }
    }
  }
  if (found.length === 0 && text.length > 0) {
    const sha1 = createHash('sha1').update(text).digest('hex');
    const hit = libraries.find((library) => library.entry.hashes?.[sha1]);
    if (hit) {
      found.push({ library: hit.name, version: hit.entry.hashes![sha1]!, how: 'file hash' });
    }
  }
  return unique(found);
}

const part = (token: string | undefined): number | string =>
  token === undefined ? 0 : /^\d+$/.test(token) ? Number(token) : token;

/**
 * retire.js's ordering: dot- or dash-separated parts, numbers numerically, a missing part counts as 0,
 * and a textual part (a pre-release tag such as "beta1" or "0b1") sorts below any number, so
 * 3.0.0-beta1 < 3.0.0 and 1.9.0b1 < 1.9.0.
 */
export function isAtOrAbove(version: string, bound: string): boolean {
  const a = version.split(/[.-]/);
  const b = bound.split(/[.-]/);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = part(a[i]);
    const y = part(b[i]);
    if (typeof x !== typeof y) {
      return typeof x === 'number';
    }
    if (x !== y) {
      return x > y;
    }
  }
  return true;
}

/** A range as retire.js means it: [atOrAbove, below), minus the listed exclusions. */
export function affects(vulnerability: LibraryVulnerability, version: string): boolean {
  return (
    !isAtOrAbove(version, vulnerability.below) &&
    (vulnerability.atOrAbove === undefined || isAtOrAbove(version, vulnerability.atOrAbove)) &&
    !(vulnerability.excludes ?? []).includes(version)
  );
}

/** retire.js marks "no fix in this line" with bounds such as 1.999 or 999.999.999. */
export const endOfLine = (version: string) => version.split(/[.-]/).some((p) => /^9{3,}$/.test(p));

/**
 * The lowest version that none of the library's known vulnerabilities affects, reached by following
 * the fixed-in bounds upwards. An end-of-life bound such as 3.999.999 leads on to the next major line
 * (4.0.0, then that line's own fixes); null when the version is not affected, or when no release
 * fixes everything (a bound such as 999.999.999).
 */
export function firstSafeVersion(entry: LibraryEntry, version: string): string | null {
  let candidate = version;
  for (let step = 0; step < 50; step++) {
    const open = entry.vulnerabilities.filter((v) => affects(v, candidate));
    if (open.length === 0 && !endOfLine(candidate)) {
      return candidate === version ? null : candidate;
    }
    if (open.length === 0) {
      const major = Number(candidate.split(/[.-]/)[0]);
      if (!Number.isFinite(major) || major >= 999) {
        return null;
      }
      candidate = `${major + 1}.0.0`;
    } else {
      candidate = open.map((v) => v.below).reduce((a, b) => (isAtOrAbove(a, b) ? a : b));
    }
  }
  return null;
}
