// The Notifications and Automation card of /dashboard/settings: the four toggles, saved per user in
// user_settings as they change, and the webhook URL (https only, as the table requires) while webhooks are on.
import { type FormEvent, useState } from 'react';

import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { type UserSettings, useSaveUserSettings, useUserSettings } from '../api/user-settings.ts';
import { webhookUrlSchema } from '../lib/webhook-url.ts';

type Toggle = Exclude<keyof UserSettings, 'webhook_url'>;

const TOGGLES: readonly { key: Toggle; label: string; text: string }[] = [
  {
    key: 'email_notifications',
    label: 'Email Notifications',
    text: 'Receive security alerts and reports by e-mail.',
  },
  { key: 'realtime_alerts', label: 'Real-time Alerts', text: 'Show critical alerts as they happen.' },
  {
    key: 'automatic_remediation',
    label: 'Automatic Remediation',
    text: 'Agents never change your systems. With this on, they verify your fixes: when a new scan no longer finds an issue, they close its alert and complete its recommendation, and when you mark a recommendation implemented they rescan to check it. With it off, you close alerts and recommendations yourself.',
  },
  { key: 'webhook_notifications', label: 'Webhook Notifications', text: 'Send events to your own endpoint.' },
];

const saveFailed = () =>
  toast({ title: 'Settings not saved', description: 'Please try again.', variant: 'destructive' });

export function NotificationSettings({ userId }: { userId: string }) {
  const settings = useUserSettings(userId);
  const save = useSaveUserSettings(userId);
  const [url, setUrl] = useState<string | null>(null);
  const [urlError, setUrlError] = useState<string | null>(null);
  const current = settings.data;
  const update = (next: UserSettings, saved?: string) =>
    save.mutate(next, {
      onError: saveFailed,
      onSuccess: () => saved && toast({ title: saved }),
    });
  const onSaveUrl = (event: FormEvent) => {
    event.preventDefault();
    const parsed = webhookUrlSchema.safeParse(url ?? current?.webhook_url ?? '');
    // Guards the table's check: an invalid URL is explained here instead of failing on the server.
    if (!parsed.success || !current) {
      setUrlError(parsed.error?.issues[0]?.message ?? null);
      return;
    }
    setUrlError(null);
    update({ ...current, webhook_url: parsed.data }, 'Webhook URL saved');
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Notifications and Automation</CardTitle>
        <CardDescription>Choose how Vigil keeps you informed.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {TOGGLES.map((toggle) => (
          <div key={toggle.key} className="flex items-center justify-between gap-4">
            <div>
              <Label htmlFor={`setting-${toggle.key}`}>{toggle.label}</Label>
              <p className="text-sm text-muted-foreground">{toggle.text}</p>
            </div>
            {current ? (
              <Switch
                id={`setting-${toggle.key}`}
                checked={current[toggle.key]}
                disabled={save.isPending}
                onCheckedChange={(checked) => update({ ...current, [toggle.key]: checked })}
              />
            ) : (
              <Skeleton className="h-6 w-11 rounded-full" />
            )}
          </div>
        ))}
        {settings.isError && <p className="text-sm text-destructive">Your settings could not be loaded.</p>}
        {current?.webhook_notifications && (
          <form className="space-y-2" onSubmit={onSaveUrl} noValidate>
            <Label htmlFor="webhook-url">Webhook URL</Label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Input
                id="webhook-url"
                type="url"
                inputMode="url"
                placeholder="https://example.com/hooks/vigil"
                value={url ?? current.webhook_url ?? ''}
                aria-invalid={urlError !== null}
                aria-describedby={urlError ? 'webhook-url-error' : undefined}
                onChange={(event) => setUrl(event.target.value)}
              />
              <Button type="submit" disabled={save.isPending}>
                Save URL
              </Button>
            </div>
            {urlError && (
              <p id="webhook-url-error" className="text-sm text-destructive">
                {urlError}
              </p>
            )}
          </form>
        )}
      </CardContent>
    </Card>
  );
}
