/**
 * The "Perhaps you meant …" suggestions of PostgREST's errors come from a fuzzy string set (Haskell's
 * Data.FuzzySet, the algorithm of python's fuzzyset): cosine similarity of 3-gram counts (2-grams when no
 * 3-gram matches), re-ranked by Levenshtein similarity, kept from a score of 0.33. Written here because the
 * JavaScript port of the algorithm is not under a licence a commercial product may use.
 */
const MIN_SCORE = 0.33;

const normalize = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}, ]+/gu, '');

function grams(value: string, size: number): Map<string, number> {
  const padded = `-${normalize(value)}-`;
  const out = new Map<string, number>();
  for (let i = 0; i + size <= Math.max(padded.length, size); i++) {
    const g = padded.slice(i, i + size).padEnd(size, '-');
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((a, n) => a + n * n, 0));

function levenshtein(a: string, b: string): number {
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

/** The candidates that look like `value`, best first, with their scores. */
export function fuzzyMatches(candidates: readonly string[], value: string): [number, string][] {
  const unique = [...new Set(candidates)];
  for (const size of [3, 2]) {
    const query = grams(value, size);
    const scored: [number, string][] = [];
    for (const c of unique) {
      const cg = grams(c, size);
      let dot = 0;
      for (const [g, n] of query) {
        dot += n * (cg.get(g) ?? 0);
      }
      if (dot > 0) {
        scored.push([dot / (norm(query) * norm(cg)), c]);
      }
    }
    if (scored.length > 0) {
      const a = normalize(value);
      return scored
        .sort((x, y) => y[0] - x[0])
        .slice(0, 50)
        .map(([, c]): [number, string] => {
          const b = normalize(c);
          return [1 - levenshtein(a, b) / Math.max(a.length, b.length, 1), c];
        })
        .sort((x, y) => y[0] - x[0])
        .filter(([score]) => score >= MIN_SCORE);
    }
  }
  return [];
}

/** The best match, or null; `inexact` skips an exact match (PostgREST's child suggestion does). */
export function closest(candidates: readonly string[], value: string, inexact = false): string | null {
  return fuzzyMatches(candidates, value).find(([score]) => !inexact || score < 1)?.[1] ?? null;
}
