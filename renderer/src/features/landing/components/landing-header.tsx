import { Shield } from 'lucide-react';
import { Link } from 'react-router-dom';

import { Button } from '../../../components/ui/button.tsx';

export function LandingHeader() {
  const scrollToPricing = () => {
    document.getElementById('agents')?.scrollIntoView({ behavior: 'smooth' });
  };
  return (
    <header className="fixed inset-x-0 top-0 z-30 border-b bg-background/80 backdrop-blur">
      <nav className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4" aria-label="Main">
        <Link to="/" className="flex items-center gap-2 text-xl font-bold">
          <Shield className="size-7 text-primary" aria-hidden />
          Vigil
        </Link>
        <div className="flex items-center gap-1 sm:gap-4">
          <Button variant="ghost" size="sm" onClick={scrollToPricing}>
            Pricing
          </Button>
          <Button variant="ghost" size="sm" asChild>
            <Link to="/support">Support</Link>
          </Button>
          <Button size="sm" asChild>
            <Link to="/auth">Get Started</Link>
          </Button>
        </div>
      </nav>
    </header>
  );
}
