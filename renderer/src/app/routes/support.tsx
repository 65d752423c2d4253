import { CheckCircle2, Clock } from 'lucide-react';

import { SUPPORT_RESPONSE_TARGETS, SYSTEM_COMPONENTS } from '../../../../shared/constants.ts';
import { PublicPageLayout } from '../../components/layouts/public-page-layout.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { TicketForm } from '../../features/support/components/ticket-form.tsx';

export function Component() {
  return (
    <PublicPageLayout title="Support Center" subtitle="Our security team is available 24/7.">
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle className="text-lg">System Status</CardTitle>
              <CardDescription>All systems operational</CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="space-y-3" aria-label="System status">
                {SYSTEM_COMPONENTS.map((name) => (
                  <li key={name} className="flex items-center justify-between text-sm">
                    <span>{name}</span>
                    <span className="flex items-center gap-1 text-success">
                      <CheckCircle2 className="size-4" aria-hidden /> Operational
                    </span>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-lg">Response Times</CardTitle>
              <CardDescription>Support is available 24/7</CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="space-y-3 text-sm">
                {SUPPORT_RESPONSE_TARGETS.map((item) => (
                  <li key={item.priority} className="flex items-center justify-between">
                    <span>{item.priority}</span>
                    <span className="flex items-center gap-1 text-muted-foreground">
                      <Clock className="size-4" aria-hidden /> {item.target}
                    </span>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </div>
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle className="text-lg">Submit a Support Ticket</CardTitle>
            <CardDescription>Describe the issue and our team will get back to you.</CardDescription>
          </CardHeader>
          <CardContent>
            <TicketForm />
          </CardContent>
        </Card>
      </div>
    </PublicPageLayout>
  );
}
