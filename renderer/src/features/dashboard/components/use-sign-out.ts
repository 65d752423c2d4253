import { useNavigate } from 'react-router-dom';

import { TOASTS } from '../../../../../shared/messages.ts';
import { toast } from '../../../hooks/use-toast.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';

/** Signs out and goes to /, with the success or failure toast of docs/product.md §8. */
export function useSignOut(): () => Promise<void> {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  return async () => {
    try {
      await signOut();
      toast(TOASTS.signOutOk);
      await navigate('/');
    } catch {
      toast({ ...TOASTS.signOutFailed, variant: 'destructive' });
    }
  };
}
