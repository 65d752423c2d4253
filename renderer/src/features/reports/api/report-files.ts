// The files of one report: the PDF at file_path and its CSV and JSON exports beside it.
export type ReportFormat = 'pdf' | 'csv' | 'json';

/** The stored path of one format: the PDF's path with its extension swapped. */
export function formatPath(filePath: string, format: ReportFormat): string {
  return filePath.replace(/\.pdf$/, `.${format}`);
}
