import { SearchX } from 'lucide-react';
import { useNavigate } from 'react-router-dom';

import { Button } from '../ui/button.tsx';

/** Page Not Found: for any unknown path and as the router's error screen. */
export function NotFound() {
  const navigate = useNavigate();
  return (
    <main className="flex min-h-screen items-center justify-center bg-background p-4">
      <div className="max-w-md space-y-6 text-center">
        <SearchX className="mx-auto size-14 text-muted-foreground" aria-hidden />
        <p className="text-6xl font-bold text-primary">404</p>
        <h1 className="text-2xl font-semibold">Page Not Found</h1>
        <p className="text-muted-foreground">
          The page you are looking for does not exist or has been moved.
        </p>
        <div className="flex flex-col justify-center gap-2 sm:flex-row">
          <Button onClick={() => void navigate('/')}>Return to Home</Button>
          <Button variant="outline" onClick={() => void navigate(-1)}>
            Go Back
          </Button>
        </div>
      </div>
    </main>
  );
}
