// Recall and precision of a scan against a fixture's planted issues.
import type { Finding } from '../../shared/findings.ts';
import type { PlantedIssue } from '../fixtures/planted.ts';
import { relativeLocation } from '../fixtures/planted.ts';

export interface Measurement {
  missed: PlantedIssue[];
  unexpected: PlantedIssue[];
  recall: number;
  precision: number;
}

const key = (issue: PlantedIssue) => `${issue.rule_id} @ ${issue.location}`;

export function measure(findings: Finding[], planted: PlantedIssue[], target: string): Measurement {
  const found = findings.map((f) => ({ rule_id: f.rule_id, location: relativeLocation(f.location, target) }));
  const foundKeys = new Set(found.map(key));
  const plantedKeys = new Set(planted.map(key));
  const missed = planted.filter((issue) => !foundKeys.has(key(issue)));
  const unexpected = found.filter((issue) => !plantedKeys.has(key(issue)));
  return {
    missed,
    unexpected,
    recall: planted.length === 0 ? 1 : (planted.length - missed.length) / planted.length,
    precision: found.length === 0 ? 1 : (found.length - unexpected.length) / found.length,
  };
}
