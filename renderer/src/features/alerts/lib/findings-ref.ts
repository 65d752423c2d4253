// Which findings an insight is about, read from its data: one rule on several targets, or new services.
export type InsightFindingsRef = { ruleId: string } | { locations: string[] } | null;

export function insightFindingsRef(data: unknown): InsightFindingsRef {
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    return null;
  }
  const record = data as Record<string, unknown>;
  if (typeof record.rule_id === 'string' && record.rule_id) {
    return { ruleId: record.rule_id };
  }
  if (Array.isArray(record.new_services)) {
    const locations = record.new_services.filter((l): l is string => typeof l === 'string' && l.length > 0);
    return locations.length ? { locations } : null;
  }
  return null;
}

export interface Step {
  title: string;
  detail?: string;
}

/** A recommendation's steps: objects with a title (and detail), or plain strings; anything else is skipped. */
export function recommendationSteps(steps: unknown): Step[] {
  if (!Array.isArray(steps)) {
    return [];
  }
  return steps.flatMap((s): Step[] => {
    if (typeof s === 'string' && s) {
      return [{ title: s }];
    }
    if (s && typeof s === 'object' && typeof (s as { title?: unknown }).title === 'string') {
      const { title, detail } = s as { title: string; detail?: unknown };
      return [{ title, ...(typeof detail === 'string' ? { detail } : {}) }];
    }
    return [];
  });
}
