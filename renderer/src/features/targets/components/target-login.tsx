import { KeyRound } from 'lucide-react';
import { useState } from 'react';

import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import type { ScanTarget } from '../api/get-targets.ts';
import { useDeleteTargetLogin } from '../api/target-login.ts';
import { TargetLoginForm } from './target-login-form.tsx';

const kindLabel: Record<string, string> = {
  form: 'a login form',
  cookie: 'a session cookie',
  header: 'a login header',
};

/** A website target's scan login: whether one is saved (never what it is), and adding or removing it. */
export function TargetLoginSection({ target }: { target: ScanTarget }) {
  const [editing, setEditing] = useState(false);
  const remove = useDeleteTargetLogin();
  const saved = target.login_kind;
  return (
    <div className="space-y-2 text-sm">
      <p className="flex items-center gap-2">
        <KeyRound className="size-4 text-muted-foreground" aria-hidden />
        {saved ? (
          <span>
            Scans log in with {kindLabel[saved] ?? saved}
            {target.login_url ? ` at ${target.login_url}` : ''}
            {target.login_updated_at ? ` (saved ${new Date(target.login_updated_at).toLocaleString()})` : ''}.
            The login is stored encrypted and is never shown again.
          </span>
        ) : (
          <span className="text-muted-foreground">Scans do not log in to this site.</span>
        )}
      </p>
      {editing ? (
        <TargetLoginForm targetId={target.id} targetUrl={target.value} onDone={() => setEditing(false)} />
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" onClick={() => setEditing(true)}>
            {saved ? 'Replace login' : 'Add login'}
          </Button>
          {saved ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(target.id, {
                  onSuccess: () => toast({ title: 'Login removed', description: 'Scans no longer log in.' }),
                  onError: (error) =>
                    toast({ title: 'Login not removed', description: error.message, variant: 'destructive' }),
                })
              }
            >
              Remove login
            </Button>
          ) : null}
        </div>
      )}
    </div>
  );
}
