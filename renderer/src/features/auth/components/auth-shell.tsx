import { Shield } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';

/** The centred card that frames every authentication screen. */
export function AuthShell({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-background px-4 py-10">
      <Link to="/" className="flex items-center gap-2 text-2xl font-bold">
        <Shield className="size-8 text-primary" aria-hidden /> Vigil
      </Link>
      <Card className="w-full max-w-md">
        <CardHeader className="text-center">
          <h1 className="text-2xl leading-tight font-semibold tracking-tight">{title}</h1>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </main>
  );
}
