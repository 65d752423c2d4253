// Realtime refresh of the Alerts page: any change of the user's security events, findings, ML insights or
// recommendations (new scans, fixes, triage from another tab) refreshes every query under 'alerts'.
import { useTableChanges } from '../../../hooks/use-table-changes.ts';
import { alertKeys } from '../api/keys.ts';

const TABLES = ['security_events', 'findings', 'ml_insights', 'ai_security_recommendations'] as const;

export function useAlertChanges(userId: string): void {
  useTableChanges({
    topic: 'alerts',
    uniqueTopic: true,
    watches: TABLES.map((table) => ({ table, filter: `user_id=eq.${userId}` })),
    queryKey: alertKeys.all,
  });
}
