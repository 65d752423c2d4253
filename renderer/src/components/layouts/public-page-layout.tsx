import { ArrowLeft, Shield } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { Button } from '../ui/button.tsx';
import { SiteFooter } from './site-footer.tsx';

/** Header with Back to Home, a titled main area and the site footer, for the public content pages. */
export function PublicPageLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b">
        <div className="mx-auto flex h-16 max-w-5xl items-center justify-between px-4">
          <Link to="/" className="flex items-center gap-2 text-lg font-bold">
            <Shield className="size-6 text-primary" aria-hidden /> Vigil
          </Link>
          <Button variant="ghost" size="sm" asChild>
            <Link to="/">
              <ArrowLeft aria-hidden /> Back to Home
            </Link>
          </Button>
        </div>
      </header>
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-12">
        <h1 className="text-3xl font-bold sm:text-4xl">{title}</h1>
        {subtitle ? <div className="mt-2 text-muted-foreground">{subtitle}</div> : null}
        <div className="mt-8">{children}</div>
      </main>
      <SiteFooter />
    </div>
  );
}
