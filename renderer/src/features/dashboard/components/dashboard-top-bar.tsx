import { LogOut, Menu, Shield, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, NavLink } from 'react-router-dom';

import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/utils.ts';
import { DASHBOARD_NAV } from './nav-items.ts';
import { useSignOut } from './use-sign-out.ts';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-2 text-sm font-medium transition-colors',
    isActive ? 'bg-primary/15 text-primary' : 'text-muted-foreground hover:bg-accent hover:text-foreground',
  );

export function DashboardTopBar() {
  const [menuOpen, setMenuOpen] = useState(false);
  const signOut = useSignOut();

  useEffect(() => {
    if (!menuOpen) {
      return undefined;
    }
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setMenuOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <header className="fixed inset-x-0 top-0 z-30 h-16 border-b bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-full max-w-7xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex items-center gap-2 text-xl font-bold">
          <Shield className="size-7 text-primary" aria-hidden /> Vigil
        </Link>
        <nav className="hidden items-center gap-1 md:flex" aria-label="Dashboard">
          {DASHBOARD_NAV.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end} className={linkClass}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <Button variant="outline" size="sm" className="hidden md:inline-flex" onClick={() => void signOut()}>
          <LogOut aria-hidden /> Sign Out
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X aria-hidden /> : <Menu aria-hidden />}
        </Button>
      </div>
      {menuOpen ? (
        <div id="mobile-menu" className="fixed inset-x-0 top-16 bottom-0 z-40 bg-background md:hidden">
          <nav className="flex flex-col gap-1 p-4" aria-label="Dashboard mobile">
            {DASHBOARD_NAV.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                end={item.end}
                className={(state) => cn(linkClass(state), 'py-3 text-base')}
                onClick={() => setMenuOpen(false)}
              >
                {item.label}
              </NavLink>
            ))}
            <Button
              variant="outline"
              className="mt-4"
              onClick={() => {
                setMenuOpen(false);
                void signOut();
              }}
            >
              <LogOut aria-hidden /> Sign Out
            </Button>
          </nav>
        </div>
      ) : null}
    </header>
  );
}
