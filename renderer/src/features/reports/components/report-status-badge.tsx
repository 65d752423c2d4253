// Report status colours (docs/product.md §4): completed green, generating yellow, failed red, anything else grey.
import { cn } from '../../../lib/utils.ts';

const STATUS_CLASSES: Record<string, string> = {
  completed: 'bg-green-600 text-white',
  generating: 'bg-yellow-400 text-black',
  failed: 'bg-red-600 text-white',
};

export function statusClass(status: string): string {
  return STATUS_CLASSES[status] ?? 'bg-gray-500 text-white';
}

export function ReportStatusBadge({ status }: { status: string }) {
  return (
    <span
      data-status={status}
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize',
        statusClass(status),
      )}
    >
      {status}
    </span>
  );
}
