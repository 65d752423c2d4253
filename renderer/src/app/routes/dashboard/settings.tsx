import { BillingSection } from '../../../features/billing/components/billing-section.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NotificationSettings } from '../../../features/dashboard/components/notification-settings.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { useTheme } from '../../../lib/theme/theme-context.ts';
import { isTheme } from '../../../lib/theme/theme-context.ts';

export function Component() {
  useDocumentTitle('Settings');
  const { theme, setTheme } = useTheme();
  const { user } = useAuth();
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">Settings</h1>
      {user && <NotificationSettings userId={user.id} />}
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
