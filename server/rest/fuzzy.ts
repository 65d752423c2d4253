/**
 * The "Perhaps you meant …" suggestions of PostgREST's errors come from a fuzzy string set (Haskell's
 * Data.FuzzySet 0.2, the algorithm of python's fuzzyset): an entry equal to the value (ignoring case) is the
 * only match, with score 1; otherwise cosine similarity of 3-gram counts of the normalised strings (letters,
 * digits, spaces and commas), re-ranked by the Levenshtein similarity of the lowercased strings as given,
 * kept from a minimum score (0.33 unless said otherwise); when 3-grams leave nothing, 2-grams are tried.
 * Written here because the JavaScript port of the algorithm is not under a licence a commercial product
 * may use.
 */
export const DEFAULT_MIN_SCORE = 0.33;

/**
 * PostgREST 14 suggests a table or a function by name only from this score (a near-miss name, not any name
 * sharing a few letters, so that a probe learns little about the schema); parameters and relationships keep
 * the default.
 */
export const NAME_HINT_MIN_SCORE = 0.75;

const normalize = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}, ]+/gu, '');

function grams(value: string, size: number): Map<string, number> {
  const padded = `-${normalize(value)}-`;
  const out = new Map<string, number>();
  for (let i = 0; i + size <= padded.length; i++) {
    const g = padded.slice(i, i + size);
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((a, n) => a + n * n, 0));

function levenshtein(a: readonly string[], b: readonly string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/** 1 − distance / the longer length (text-metrics' levenshteinNorm), on code points. */
function similarity(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 1 : 1 - levenshtein(x, y) / longest;
}

/** The candidates that look like `value`, best first, with their scores. */
export function fuzzyMatches(
  candidates: readonly string[],
  value: string,
  minScore = DEFAULT_MIN_SCORE,
): [number, string][] {
  const key = value.toLowerCase();
  // The set keeps the first spelling of each entry, keyed by its lowercase form.
  const entries = new Map<string, string>();
  for (const c of candidates) {
    if (!entries.has(c.toLowerCase())) {
      entries.set(c.toLowerCase(), c);
    }
  }
  const exact = entries.get(key);
  if (exact !== undefined) {
    return [[1, exact]];
  }
  for (const size of [3, 2]) {
    const query = grams(key, size);
    const scored: [number, string][] = [];
    for (const entry of entries.keys()) {
      const cg = grams(entry, size);
      let dot = 0;
      for (const [g, n] of query) {
        dot += n * (cg.get(g) ?? 0);
      }
      if (dot > 0) {
        scored.push([dot / (norm(query) * norm(cg)), entry]);
      }
    }
    const kept = scored
      .sort((x, y) => y[0] - x[0])
      .slice(0, 50)
      .map(([, entry]): [number, string] => [similarity(key, entry), entry])
      .sort((x, y) => y[0] - x[0])
      .filter(([score]) => score >= minScore)
      .map(([score, entry]): [number, string] => [score, entries.get(entry)!]);
    if (kept.length > 0) {
      return kept;
    }
  }
  return [];
}

/** The best match, or null. */
export function closest(
  candidates: readonly string[],
  value: string,
  minScore = DEFAULT_MIN_SCORE,
): string | null {
  return fuzzyMatches(candidates, value, minScore)[0]?.[1] ?? null;
}
