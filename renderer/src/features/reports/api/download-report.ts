// Downloads a completed report: a signed URL valid for one minute from the private 'reports' bucket
// (storage policies let a customer sign only their own folder), saved through the platform adapter
// (browser download on the web, a save dialog in the desktop app).
import { platform } from '../../../lib/platform/index.ts';
import { supabase } from '../../../lib/supabase.ts';

import { formatPath, type ReportFormat } from './report-files.ts';

export type { ReportFormat } from './report-files.ts';
const SIGNED_URL_SECONDS = 60;

export async function downloadReport(
  report: { id: string; file_path: string | null; generated_at: string },
  format: ReportFormat = 'pdf',
): Promise<boolean> {
  if (!report.file_path) {
    throw new Error('the report has no file');
  }
  const name = `vigil-report-${report.generated_at.slice(0, 10)}-${report.id.slice(0, 8)}.${format}`;
  const { data, error } = await (
    await supabase()
  ).storage
    .from('reports')
    .createSignedUrl(formatPath(report.file_path, format), SIGNED_URL_SECONDS, { download: name });
  if (error) {
    throw error;
  }
  const result = await platform.saveReport(data.signedUrl, name);
  return result.saved;
}
