import { useEffect } from 'react';

import { SiteFooter } from '../../components/layouts/site-footer.tsx';
import { AgentsSection } from '../../features/landing/components/agents-section.tsx';
import { Hero } from '../../features/landing/components/hero.tsx';
import { LandingHeader } from '../../features/landing/components/landing-header.tsx';
import { StatsStrip } from '../../features/landing/components/stats-strip.tsx';
import { Testimonials } from '../../features/landing/components/testimonials.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';

export function Component() {
  useDocumentTitle();
  useEffect(() => {
    // Clears any query string (tracking parameters, stale auth codes) from the address bar after load.
    if (window.location.search) {
      window.history.replaceState(window.history.state, '', window.location.pathname + window.location.hash);
    }
  }, []);
  return (
    <div className="min-h-screen">
      <LandingHeader />
      <main>
        <Hero />
        <StatsStrip />
        <AgentsSection />
        <Testimonials />
      </main>
      <SiteFooter />
    </div>
  );
}
