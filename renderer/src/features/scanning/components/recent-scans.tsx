import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useRecentScans } from '../api/get-recent-scans.ts';
import { categoriesNote } from '../../../../../shared/scan-categories.ts';
import { completenessNote } from '../../../../../shared/scan-completeness.ts';
import { crawlNote } from '../lib/crawl-note.ts';
import { severityLabel } from '../lib/scan-status.ts';
import { SCANNERS } from '../lib/scanners.ts';
import { ScanStatusBadge } from './scan-status-badge.tsx';

const nameOf = (type: string) => SCANNERS.find((s) => s.type === type)?.name ?? type;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** The user's latest 10 scans, newest start first. */
export function RecentScans({ userId }: { userId: string }) {
  const scans = useRecentScans(userId);
  return (
    <section aria-labelledby="recent-scans-title" className="space-y-3">
      <h2 id="recent-scans-title" className="text-xl font-semibold">
        Recent Scans
      </h2>
      {scans.isPending ? (
        <div className="space-y-2">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      ) : scans.isError ? (
        <p className="text-sm text-destructive">Error fetching scan results</p>
      ) : scans.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No scans yet. Start one above, or wait for the automatic daily scan.
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <table className="w-full min-w-[36rem] text-sm">
            <thead className="bg-muted/50 text-left">
              <tr>
                <th scope="col" className="p-3 font-medium">
                  Scanner
                </th>
                <th scope="col" className="p-3 font-medium">
                  Target
                </th>
                <th scope="col" className="p-3 font-medium">
                  Status
                </th>
                <th scope="col" className="p-3 font-medium">
                  Severity
                </th>
                <th scope="col" className="p-3 font-medium">
                  Started
                </th>
              </tr>
            </thead>
            <tbody>
              {scans.data.map((scan) => {
                const note = crawlNote(scan.analyzed_results);
                const completeness = completenessNote(scan.analyzed_results);
                const categories = categoriesNote(scan.analyzed_results);
                return (
                  <tr key={scan.id} className="border-t">
                    <td className="p-3">{nameOf(scan.scan_type)}</td>
                    <td className="max-w-[14rem] p-3">
                      <span className="block truncate" title={scan.target ?? undefined}>
                        {scan.target ?? '—'}
                      </span>
                      {note ? (
                        <span
                          className="block text-xs text-muted-foreground"
                          title={note.detail ?? undefined}
                        >
                          {note.text}
                        </span>
                      ) : null}
                    </td>
                    <td className="p-3">
                      <ScanStatusBadge status={scan.status} />
                      {completeness ? (
                        <details className="mt-1 max-w-[16rem] text-xs text-amber-700 dark:text-amber-400">
                          <summary className="cursor-pointer">{completeness.text}</summary>
                          {completeness.details.length > 0 ? (
                            <ul className="mt-1 list-disc space-y-0.5 pl-4 break-words text-muted-foreground">
                              {completeness.details.map((line, i) => (
                                <li key={i}>{line}</li>
                              ))}
                            </ul>
                          ) : (
                            <p className="mt-1 text-muted-foreground">
                              Not every check ran; findings not seen this time are not marked fixed.
                            </p>
                          )}
                        </details>
                      ) : null}
                      {categories ? (
                        <span
                          className="mt-1 block max-w-[16rem] text-xs text-muted-foreground"
                          title={
                            categories.skipped.length
                              ? `Not run: ${categories.skipped.join(', ')}. The target's owner can allow intrusive checks in the target list.`
                              : undefined
                          }
                        >
                          {categories.text}
                        </span>
                      ) : null}
                    </td>
                    <td className="p-3">
                      {scan.status === 'completed' ? severityLabel(scan.severity_level) : '—'}
                    </td>
                    <td className="p-3 whitespace-nowrap">{when(scan.start_time)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
