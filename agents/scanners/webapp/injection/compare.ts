// How the differential probes compare responses. A page may echo what we send (raw, HTML-escaped,
// URL-encoded or JSON-escaped), and may change by itself between two identical requests (a clock, a
// counter, a random tip, an A/B variant). Reflections are replaced by one placeholder, and the page's own
// variation, measured on repeated identical requests, sets how different a response must be to count.
import { header } from '../../core/http-client.ts';
import type { HttpResponse } from '../../core/http-client.ts';

export interface Observation {
  status: number;
  location: string;
  text: string;
}

const placeholder = '\u0000v\u0000';
const named: Record<string, string[]> = {
  "'": ['&apos;'],
  '"': ['&quot;'],
  '<': ['&lt;'],
  '>': ['&gt;'],
  '&': ['&amp;'],
  ' ': ['&nbsp;', '\\+'],
};
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every way a page commonly writes character `c` back: itself, entities, %XX, \uXXXX, \c. */
function charForms(c: string): string {
  if (/[A-Za-z0-9]/.test(c)) {
    return c;
  }
  const code = c.codePointAt(0) ?? 0;
  const hex = code.toString(16);
  const forms = [
    escapeRegex(c),
    `&#0*${code};`,
    `&#x0*${hex};`,
    `%${hex.padStart(2, '0')}`,
    `\\\\u${hex.padStart(4, '0')}`,
    `\\\\${escapeRegex(c)}`,
    ...(named[c] ?? []),
  ];
  return `(?:${forms.join('|')})`;
}

/** A pattern matching `value` as the page may have written it back, or null for an empty value. */
export function reflectionPattern(value: string): RegExp | null {
  if (value === '') {
    return null;
  }
  return new RegExp([...value].map(charForms).join(''), 'gi');
}

/**
 * The response with the sent value and the parameter's original value replaced by a placeholder (the
 * original too: a payload starts with it, and a page may show it from the database as well).
 */
export function observe(response: HttpResponse, sent: string, original: string): Observation {
  const clean = (text: string) => {
    let out = text;
    for (const value of [sent, original]) {
      const pattern = reflectionPattern(value);
      if (pattern) {
        out = out.replace(pattern, placeholder);
      }
    }
    return out;
  };
  return {
    status: response.status,
    location: clean(header(response, 'location') ?? ''),
    text: clean(response.body.slice(0, 300_000)),
  };
}

function tokens(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of text.split(/\s+|(?=<)|(?<=>)/)) {
    if (token !== '') {
      counts.set(token, (counts.get(token) ?? 0) + 1);
    }
  }
  return counts;
}

/** 0 for identical observations, up to 1 for nothing in common (Dice distance over tokens). */
export function distance(a: Observation, b: Observation): number {
  if (a.status !== b.status || a.location !== b.location) {
    return 1;
  }
  if (a.text === b.text) {
    return 0;
  }
  const ta = tokens(a.text);
  const tb = tokens(b.text);
  let common = 0;
  let total = 0;
  for (const [token, n] of ta) {
    common += Math.min(n, tb.get(token) ?? 0);
    total += n;
  }
  for (const n of tb.values()) {
    total += n;
  }
  return total === 0 ? 0 : 1 - (2 * common) / total;
}

/**
 * What "the same page" and "a different page" mean for one parameter, from repeated identical requests:
 * a stable page must match exactly; a page that varies by itself must differ far beyond its own noise.
 */
export class Baseline {
  readonly noise: number;

  constructor(readonly samples: Observation[]) {
    let noise = 0;
    for (let i = 0; i < samples.length; i++) {
      for (let j = i + 1; j < samples.length; j++) {
        noise = Math.max(noise, distance(samples[i]!, samples[j]!));
      }
    }
    this.noise = noise;
  }

  /** Too unstable to tell an injected condition from the page's own changes. */
  get tooNoisy(): boolean {
    return this.noise > 0.25;
  }

  alike(a: Observation, b: Observation): boolean {
    return this.noise === 0 ? distance(a, b) === 0 : distance(a, b) <= 2 * this.noise + 0.005;
  }

  same(x: Observation): boolean {
    return this.alike(x, this.samples[0]!);
  }

  differs(x: Observation): boolean {
    const d = distance(x, this.samples[0]!);
    return this.noise === 0 ? d > 0 : d >= 3 * this.noise + 0.05;
  }
}
