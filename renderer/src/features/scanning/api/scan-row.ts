// The scan_results columns the pages show (docs/product.md §3) and their row type.
import type { Database } from '../../../../../shared/database.types.ts';

export const SCAN_COLUMNS =
  'id, scan_type, status, severity_level, target, created_at, start_time, end_time, progress, analyzed_results, error_message';

type Row = Database['public']['Tables']['scan_results']['Row'];
export type ScanRow = Pick<
  Row,
  | 'id'
  | 'scan_type'
  | 'status'
  | 'severity_level'
  | 'target'
  | 'created_at'
  | 'start_time'
  | 'end_time'
  | 'progress'
  | 'analyzed_results'
  | 'error_message'
>;
