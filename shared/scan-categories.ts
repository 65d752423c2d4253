// Which categories of checks a scan ran, and which it left out because the target's owner has not allowed
// them (docs/scanners/checks.md §2). Written by the scanners (core/checks.ts `runChecks`) into the scan's
// result and analyzed_results.categories; read by the scans table and the reports.
import { z } from 'zod';

export const checkCategories = ['passive', 'active', 'intrusive'] as const;
export type CheckCategory = (typeof checkCategories)[number];

export const categoryReportSchema = z.object({
  /** Categories of which at least one check ran. */
  ran: z.array(z.enum(checkCategories)),
  /** Categories left out because the owner has not allowed them for this target, with the checks not run. */
  skipped: z.array(
    z.object({
      category: z.enum(checkCategories),
      reason: z.literal('no-consent'),
      checks: z.array(z.string().max(100)).max(100),
      /** The rules those checks file: a scan without them cannot prove their findings fixed. */
      rules: z.array(z.string().max(100)).max(500),
    }),
  ),
});
export type CategoryReport = z.infer<typeof categoryReportSchema>;

const words: Record<CheckCategory, string> = {
  passive: 'passive',
  active: 'active',
  intrusive: 'intrusive',
};

/**
 * The categories in a few words for the scans table: "Checks: passive, active · intrusive not run (not
 * allowed for this target)"; null for a result that does not say (scans from before it was recorded).
 */
export function categoriesNote(analyzed: unknown): { text: string; skipped: string[] } | null {
  const results =
    analyzed && typeof analyzed === 'object' && !Array.isArray(analyzed)
      ? (analyzed as Record<string, unknown>).categories
      : undefined;
  const parsed = categoryReportSchema.safeParse(results);
  if (!parsed.success) {
    return null;
  }
  const { ran, skipped } = parsed.data;
  const ranText = ran.length ? ran.map((c) => words[c]).join(', ') : 'none';
  const skippedNames = [...new Set(skipped.map((s) => words[s.category]))];
  return {
    text: `Checks: ${ranText}${skippedNames.length ? ` · ${skippedNames.join(', ')} not run (not allowed for this target)` : ''}`,
    skipped: skipped.flatMap((s) => s.checks),
  };
}
