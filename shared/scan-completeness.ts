// Whether a finished scan ran every check, in words for the scans table and the reports: "Partial: time
// limit reached", and each part that did not finish with its reason (analyzed_results.stopped and
// .phase_errors, written by the agent worker). A partial scan's findings count, but it cannot prove anything fixed.
import type { Json } from './database.types.ts';

const reasons: Record<string, string> = {
  cancelled: 'stopped before the end',
  deadline: 'time limit reached',
  memory: 'memory cap reached',
  budget: 'request budget used up',
  crashed: 'the scan process failed',
};

export interface CompletenessNote {
  text: string;
  /** One line per part of the scan that did not finish: "crawl: …". */
  details: string[];
}

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

export function completenessNote(analyzed: Json | null): CompletenessNote | null {
  const results = record(analyzed);
  if (!results || results.partial !== true) {
    return null;
  }
  const stopped = record(results.stopped);
  const reason = typeof stopped?.reason === 'string' ? (reasons[stopped.reason] ?? null) : null;
  const details: string[] = [];
  if (stopped && typeof stopped.detail === 'string') {
    details.push(stopped.detail);
  }
  for (const failure of Array.isArray(results.phase_errors) ? results.phase_errors : []) {
    const entry = record(failure);
    if (entry && typeof entry.phase === 'string' && typeof entry.error === 'string') {
      details.push(`${entry.phase}: ${entry.error}`);
    }
  }
  const text = reason
    ? `Partial: ${reason}`
    : details.length > 0
      ? `Partial: ${details.length === 1 ? 'one part' : `${details.length} parts`} did not finish`
      : 'Partial result';
  return { text, details };
}
