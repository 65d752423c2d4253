import { ArrowRight, Calendar, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router-dom';

import { COMPLIANCE_BADGES, TRIAL_DAYS } from '../../../../../shared/constants.ts';
import { Button } from '../../../components/ui/button.tsx';

export function Hero() {
  return (
    <section className="relative overflow-hidden px-4 pt-32 pb-20 text-center">
      <div className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top,var(--color-primary)_0%,transparent_60%)] opacity-15" />
      <div className="mx-auto max-w-4xl space-y-6">
        <p className="inline-flex items-center gap-2 rounded-full border px-3 py-1 text-sm text-muted-foreground">
          <ShieldCheck className="size-4 text-success" aria-hidden /> Autonomous protection, around the clock
        </p>
        <h1 className="text-4xl font-bold tracking-tight sm:text-6xl">AI Security Agents That Never Sleep</h1>
        <p className="mx-auto max-w-2xl text-lg text-muted-foreground">
          Vigil deploys autonomous AI agents that find vulnerabilities, detect threats and respond to
          incidents across your applications, infrastructure and cloud, 24 hours a day.
        </p>
        <div className="flex flex-col justify-center gap-3 sm:flex-row">
          <Button size="lg" asChild>
            <Link to="/auth">
              Get Started <ArrowRight aria-hidden />
            </Link>
          </Button>
          <Button size="lg" variant="outline" asChild>
            <Link to="/demo">
              <Calendar aria-hidden /> Schedule Demo
            </Link>
          </Button>
        </div>
        <p className="text-sm text-muted-foreground">
          {TRIAL_DAYS}-day free trial · Cancel anytime · {COMPLIANCE_BADGES.join(' · ')}
        </p>
      </div>
    </section>
  );
}
