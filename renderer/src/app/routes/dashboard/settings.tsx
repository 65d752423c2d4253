import { useState } from 'react';

import { BillingSection } from '../../../features/billing/components/billing-section.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useTheme } from '../../../lib/theme/theme-context.ts';
import { isTheme } from '../../../lib/theme/theme-context.ts';

/** The four toggles of SPEC point 4: local only, not persisted. */
const TOGGLES = [
  {
    key: 'email',
    label: 'Email Notifications',
    text: 'Receive security alerts and reports by e-mail.',
    initial: true,
  },
  { key: 'realtime', label: 'Real-time Alerts', text: 'Show critical alerts as they happen.', initial: true },
  {
    key: 'remediation',
    label: 'Automatic Remediation',
    text: 'Let agents apply safe fixes without asking first.',
    initial: false,
  },
  {
    key: 'webhook',
    label: 'Webhook Notifications',
    text: 'Send events to your own endpoint.',
    initial: false,
  },
] as const;

export function Component() {
  useDocumentTitle('Settings');
  const { theme, setTheme } = useTheme();
  const [values, setValues] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(TOGGLES.map((toggle) => [toggle.key, toggle.initial])),
  );
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">Settings</h1>
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
              <Switch
                id={`setting-${toggle.key}`}
                checked={values[toggle.key]}
                onCheckedChange={(checked) => setValues((current) => ({ ...current, [toggle.key]: checked }))}
              />
            </div>
          ))}
        </CardContent>
      </Card>
      <BillingSection />
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Appearance</CardTitle>
        </CardHeader>
        <CardContent>
          <Label htmlFor="theme-select">Theme</Label>
          <select
            id="theme-select"
            className="mt-2 block h-10 w-full max-w-xs rounded-md border border-input bg-background px-3 text-sm"
            value={theme}
            onChange={(event) => {
              if (isTheme(event.target.value)) {
                setTheme(event.target.value);
              }
            }}
          >
            <option value="dark">Dark</option>
            <option value="light">Light</option>
            <option value="system">System</option>
          </select>
        </CardContent>
      </Card>
    </div>
  );
}
