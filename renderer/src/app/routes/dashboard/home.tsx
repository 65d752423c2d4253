import { Bell, Bot, FileText, ScanSearch } from 'lucide-react';
import { Link, Navigate } from 'react-router-dom';

import { Card, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { hasPendingSelection } from '../../../features/agents/hooks/selected-roles.ts';
import { useSubscriptionSuccessToast } from '../../../features/billing/hooks/use-subscription-success-toast.ts';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { SecuritySummary } from './security-summary.tsx';

const SHORTCUTS = [
  {
    to: '/dashboard/agents',
    Icon: Bot,
    title: 'AI Security Agents',
    text: 'Choose and activate the agents that protect you.',
  },
  {
    to: '/dashboard/security-automation',
    Icon: ScanSearch,
    title: 'Security Automation',
    text: 'Run and schedule web, infrastructure and API scans.',
  },
  {
    to: '/dashboard/alerts',
    Icon: Bell,
    title: 'Security Alerts',
    text: 'Open events, ML insights and recommendations.',
  },
  {
    to: '/dashboard/reports',
    Icon: FileText,
    title: 'Security Reports',
    text: 'Download reports and manage their schedules.',
  },
] as const;

function metadataText(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function Component() {
  useDocumentTitle('Dashboard');
  useSubscriptionSuccessToast();
  const { user } = useAuth();
  const name = metadataText(user?.user_metadata.full_name);
  const company = metadataText(user?.user_metadata.company_name);
  // A visitor who chose agents before signing up lands here from the e-mail link: back to that selection.
  if (hasPendingSelection()) {
    return <Navigate to="/dashboard/select-roles" replace />;
  }
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-3xl font-bold">{name ? `Welcome back, ${name}` : 'Welcome back'}</h1>
        <p className="text-muted-foreground">
          {company ? `Security overview for ${company}` : 'Your security overview'} · signed in as{' '}
          {user?.email}
        </p>
      </div>
      <SecuritySummary userId={user?.id} />
      <div className="grid gap-4 sm:grid-cols-2">
        {SHORTCUTS.map(({ to, Icon, title, text }) => (
          <Link key={to} to={to} className="rounded-lg focus-visible:outline-2 focus-visible:outline-ring">
            <Card className="h-full transition-colors hover:border-primary">
              <CardHeader>
                <Icon className="size-8 text-primary" aria-hidden />
                <CardTitle className="text-lg">{title}</CardTitle>
                <CardDescription>{text}</CardDescription>
              </CardHeader>
            </Card>
          </Link>
        ))}
      </div>
    </div>
  );
}
