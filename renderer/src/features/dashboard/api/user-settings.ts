// The four notification and automation settings of the signed-in user (user_settings, one row per user,
// owner-only under row-level security), read by the agents when they notify and when they verify and close
// fixed findings (automatic remediation: supabase/migrations/*_automatic_remediation.sql). A user without
// a row yet has the table's defaults.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { supabase } from '../../../lib/supabase.ts';

export interface UserSettings {
  email_notifications: boolean;
  realtime_alerts: boolean;
  automatic_remediation: boolean;
  webhook_notifications: boolean;
  webhook_url: string | null;
}

/** The column defaults of user_settings (supabase/migrations/*_core.sql). */
export const DEFAULT_SETTINGS: UserSettings = {
  email_notifications: true,
  realtime_alerts: true,
  automatic_remediation: false,
  webhook_notifications: false,
  webhook_url: null,
};

const COLUMNS =
  'email_notifications, realtime_alerts, automatic_remediation, webhook_notifications, webhook_url';
const key = (userId: string) => ['user-settings', userId] as const;

export async function getUserSettings(userId: string): Promise<UserSettings> {
  const { data, error } = await (
    await supabase()
  )
    .from('user_settings')
    .select(COLUMNS)
    .eq('user_id', userId)
    .maybeSingle();
  if (error) {
    throw error;
  }
  return data ?? DEFAULT_SETTINGS;
}

export async function saveUserSettings(userId: string, settings: UserSettings): Promise<UserSettings> {
  const { data, error } = await (
    await supabase()
  )
    .from('user_settings')
    .upsert({ user_id: userId, ...settings }, { onConflict: 'user_id' })
    .select(COLUMNS)
    .single();
  if (error) {
    throw error;
  }
  return data;
}

export const userSettingsQuery = (userId: string) =>
  queryOptions({ queryKey: key(userId), queryFn: () => getUserSettings(userId) });

export function useUserSettings(userId: string | undefined) {
  return useQuery({ ...userSettingsQuery(userId ?? ''), enabled: Boolean(userId) });
}

/** Saves the whole row; the page shows the new values at once and the stored ones again on failure. */
export function useSaveUserSettings(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: UserSettings) => saveUserSettings(userId, settings),
    onMutate: async (settings) => {
      await queryClient.cancelQueries({ queryKey: key(userId) });
      const previous = queryClient.getQueryData<UserSettings>(key(userId));
      queryClient.setQueryData(key(userId), settings);
      return { previous };
    },
    onError: (_error, _settings, context) => {
      queryClient.setQueryData(key(userId), context?.previous);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(key(userId), saved);
    },
  });
}
