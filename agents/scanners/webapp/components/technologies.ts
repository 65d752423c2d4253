// Names the software behind a response from Wappalyzer-style fingerprints (data/technologies.json):
// header, cookie and meta-generator patterns, with the version where the pattern captures one. A
// technology alone is never a finding; the name goes into the evidence of findings that disclose it.
import { readFileSync } from 'node:fs';
import type http from 'node:http';

import { technologyDataSchema } from './data-schema.ts';
import type { TechnologyData } from './data-schema.ts';

interface Fingerprint {
  regex: RegExp;
  /** Wappalyzer's version template: `\1`, or the ternary `\1?yes:no`. */
  version: string | undefined;
}

interface Indexed {
  name: string;
  fingerprint: Fingerprint;
}

/** Fingerprints indexed by header and cookie name, so a response costs only the names it carries. */
interface CompiledFingerprints {
  headers: Map<string, Indexed[]>;
  cookies: Map<string, Indexed[]>;
  generator: Indexed[];
}

export interface Technology {
  name: string;
  version: string | null;
  /** Where it showed: `Server header`, `cookie PHPSESSID`, `meta generator`. */
  source: string;
}

/** "regex\;version:\1\;confidence:50": the regex is matched case-insensitively, as Wappalyzer does. */
function parseFingerprint(pattern: string): Fingerprint {
  const [regex = '', ...tags] = pattern.split('\\;');
  const version = tags.find((tag) => tag.startsWith('version:'))?.slice('version:'.length);
  return { regex: new RegExp(regex, 'i'), version };
}

function resolveVersion(template: string | undefined, match: RegExpExecArray): string | null {
  if (!template) {
    return null;
  }
  const ternary = /^\\(\d)\?([^:]*):(.*)$/.exec(template);
  const filled = ternary
    ? match[Number(ternary[1])]
      ? ternary[2]!
      : ternary[3]!
    : template.replace(/\\(\d)/g, (_, group: string) => match[Number(group)] ?? '');
  const version = filled.trim();
  return /\d/.test(version) && version.length <= 40 ? version : null;
}

let loaded: { data: TechnologyData; index: CompiledFingerprints } | undefined;

function push(map: Map<string, Indexed[]>, key: string, item: Indexed): void {
  map.set(key, [...(map.get(key) ?? []), item]);
}

export function technologyFingerprints(): { data: TechnologyData; index: CompiledFingerprints } {
  if (!loaded) {
    const text = readFileSync(new URL('./data/technologies.json', import.meta.url), 'utf8');
    const data = technologyDataSchema.parse(JSON.parse(text));
    const index: CompiledFingerprints = { headers: new Map(), cookies: new Map(), generator: [] };
    for (const [name, entry] of Object.entries(data.technologies)) {
      for (const [header, pattern] of Object.entries(entry.headers ?? {})) {
        push(index.headers, header, { name, fingerprint: parseFingerprint(pattern) });
      }
      for (const [cookie, pattern] of Object.entries(entry.cookies ?? {})) {
        push(index.cookies, cookie.toLowerCase(), { name, fingerprint: parseFingerprint(pattern) });
      }
      for (const pattern of entry.meta?.generator ?? []) {
        index.generator.push({ name, fingerprint: parseFingerprint(pattern) });
      }
    }
    loaded = { data, index };
  }
  return loaded;
}

const cookieNames = (setCookie: string[] | undefined) =>
  new Map((setCookie ?? []).map((line) => [line.split('=')[0]!.trim().toLowerCase(), line.split(';')[0]!]));

/** Every technology a response's headers, cookies and meta generator identify. */
export function identify(headers: http.IncomingHttpHeaders, generator: string | null = null): Technology[] {
  const { index } = technologyFingerprints();
  const found: Technology[] = [];
  const test = (candidates: Indexed[] | undefined, value: string, source: string) => {
    for (const { name, fingerprint } of candidates ?? []) {
      const match = fingerprint.regex.exec(value);
      if (match && !found.some((t) => t.name === name)) {
        found.push({ name, version: resolveVersion(fingerprint.version, match), source });
      }
    }
  };
  for (const [name, value] of Object.entries(headers)) {
    if (name !== 'set-cookie' && value !== undefined) {
      test(index.headers.get(name), [value].flat().join(', '), `${name} header`);
    }
  }
  for (const [name, pair] of cookieNames(headers['set-cookie'])) {
    test(index.cookies.get(name), pair.slice(pair.indexOf('=') + 1), `cookie ${name}`);
  }
  if (generator !== null) {
    test(index.generator, generator, 'meta generator');
  }
  return found;
}

export const describeTechnology = (t: Technology) => (t.version ? `${t.name} ${t.version}` : t.name);
