import { Clock, Settings2, ShieldCheck } from 'lucide-react';

import { PublicPageLayout } from '../../components/layouts/public-page-layout.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';

/** The scheduling provider's embed (a 30-minute event); it loads only when the visitor is online. */
const SCHEDULER_URL = 'https://calendly.com/vigil-security/30min?hide_gdpr_banner=1';

const TILES = [
  {
    Icon: Clock,
    title: '15-Minute Demo',
    text: 'A focused walkthrough of the dashboard, agents and live scan results.',
  },
  {
    Icon: ShieldCheck,
    title: 'Security Analysis',
    text: 'We review your attack surface together and show what the agents would find first.',
  },
  {
    Icon: Settings2,
    title: 'Custom Solutions',
    text: 'Discuss integrations, compliance needs and volume pricing for your team.',
  },
] as const;

export function Component() {
  return (
    <PublicPageLayout
      title="Schedule Your Business Security Demo"
      subtitle="See how Vigil's autonomous agents protect your business. Pick a time that suits you."
    >
      <div className="grid gap-6 md:grid-cols-3">
        {TILES.map(({ Icon, title, text }) => (
          <Card key={title}>
            <CardHeader>
              <Icon className="size-8 text-primary" aria-hidden />
              <CardTitle className="text-lg">{title}</CardTitle>
              <CardDescription>{text}</CardDescription>
            </CardHeader>
          </Card>
        ))}
      </div>
      <Card className="mt-8 overflow-hidden">
        <CardContent className="p-0">
          <iframe
            title="Schedule a demo"
            src={SCHEDULER_URL}
            className="h-[700px] w-full border-0"
            loading="lazy"
            sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
            referrerPolicy="strict-origin-when-cross-origin"
          />
        </CardContent>
      </Card>
    </PublicPageLayout>
  );
}
