// The shape of the component data committed in ./data (written by scripts/refresh-vuln-data.ts): the
// retire.js repository and Wappalyzer-style technology fingerprints, reduced to the fields we match on.
// The scanner parses the files with these schemas on first use, so a hand-edited or truncated file
// fails loudly instead of silently matching nothing.
import { z } from 'zod';

/** retire.js's placeholder for the version group inside its extractor regexes. */
export const versionPlaceholder = '§§version§§';
/** What the placeholder stands for (retire.js substitutes the same character class). */
export const versionPattern = '[0-9][0-9.a-z_\\-]+';

/** Versions as retire.js writes them: "1.12.4", "3.0.0-beta1", "1.9.0b1", "1.999". */
export const retireVersion = z.string().regex(/^[0-9][0-9A-Za-z.+_-]*$/, 'not a version');

function compiles(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** An extractor regex: must contain the version placeholder and compile once it is substituted. */
const extractor = z
  .string()
  .min(1)
  .refine((s) => s.includes(`(${versionPlaceholder})`), 'extractor without a (§§version§§) group')
  .refine((s) => compiles(s.replaceAll(versionPlaceholder, versionPattern)), 'extractor does not compile');

/** retire.js's "/search/replacement/" form: the search's match is rewritten into the version. */
const replaceExtractor = z
  .string()
  .regex(/^\/(.*[^\\])\/([^/]+)\/$/, 'not /search/replacement/')
  .refine((s) => compiles(s.replaceAll(versionPlaceholder, versionPattern)), 'replacement does not compile');

export const severities = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof severities)[number];

export const libraryVulnerabilitySchema = z
  .object({
    below: retireVersion,
    atOrAbove: retireVersion.optional(),
    excludes: z.array(retireVersion).optional(),
    severity: z.enum(severities),
    /** CVE ids first, then GHSA ids, else retire.js's own references (issue, bug, retid…). */
    ids: z.array(z.string().min(1)).min(1),
    summary: z.string().max(200),
    info: z.url().optional(),
  })
  .strict();
export type LibraryVulnerability = z.infer<typeof libraryVulnerabilitySchema>;

export const libraryEntrySchema = z
  .object({
    npm: z.string().optional(),
    uri: z.array(extractor).optional(),
    filename: z.array(extractor).optional(),
    filecontent: z.array(extractor).optional(),
    filecontentreplace: z.array(replaceExtractor).optional(),
    /** SHA-1 of a known file (line endings normalised to LF) → its version. */
    hashes: z.record(z.string().regex(/^[0-9a-f]{40}$/), retireVersion).optional(),
    vulnerabilities: z.array(libraryVulnerabilitySchema),
  })
  .strict();
export type LibraryEntry = z.infer<typeof libraryEntrySchema>;

export const dataSourceSchema = z
  .object({
    /** The npm package the data was taken from, its version and the file inside it. */
    package: z.string().min(1),
    version: z.string().min(1),
    file: z.string().min(1),
    upstream: z.string().min(1),
    license: z.string().min(1),
    refreshed: z.iso.date(),
  })
  .strict();
export type DataSource = z.infer<typeof dataSourceSchema>;

export const retireDataSchema = z
  .object({
    format: z.literal(1),
    source: dataSourceSchema,
    libraries: z.record(z.string().min(1), libraryEntrySchema),
  })
  .strict();
export type RetireData = z.infer<typeof retireDataSchema>;

/** A Wappalyzer pattern: a regex, optionally followed by `\;version:\1` and `\;confidence:50` tags. */
const fingerprint = z
  .string()
  .refine((s) => compiles(s.split('\\;')[0]!), 'fingerprint regex does not compile');

export const technologySchema = z
  .object({
    /** Lower-cased header name → pattern on its value ("" = the header's presence). */
    headers: z.record(z.string().min(1), fingerprint).optional(),
    cookies: z.record(z.string().min(1), fingerprint).optional(),
    /** Lower-cased meta name → patterns on its content. */
    meta: z.record(z.string().min(1), z.array(fingerprint).min(1)).optional(),
  })
  .strict();
export type TechnologyEntry = z.infer<typeof technologySchema>;

export const technologyDataSchema = z
  .object({
    format: z.literal(1),
    source: dataSourceSchema,
    technologies: z.record(z.string().min(1), technologySchema),
  })
  .strict();
export type TechnologyData = z.infer<typeof technologyDataSchema>;
