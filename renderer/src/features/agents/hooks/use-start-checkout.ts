// Checkout (docs/product.md §4): idle → processing → redirect to the returned URL. A visitor's selection is kept
// in session storage and they go to /auth with state saying they came from agent selection.
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { toast } from '../../../hooks/use-toast.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { platform } from '../../../lib/platform/index.ts';
import { useCreateCheckout } from '../api/create-checkout.ts';
import { CHECKOUT_MESSAGES } from '../messages.ts';
import { storeSelectedRoles } from './selected-roles.ts';

export type CheckoutPhase = 'idle' | 'processing' | 'redirecting';

export function useStartCheckout() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const checkout = useCreateCheckout();
  const [phase, setPhase] = useState<CheckoutPhase>('idle');

  const start = async (roleIds: string[]) => {
    // Nothing to buy: say so instead of sending an empty order (or a visitor to /auth for nothing).
    if (roleIds.length === 0) {
      const [title, description] = CHECKOUT_MESSAGES.noAgents.split(': ');
      toast({ variant: 'destructive', title, description });
      return;
    }
    if (!user) {
      storeSelectedRoles(roleIds);
      void navigate('/auth', { state: { from: 'agent-selection', selectedRoles: roleIds } });
      return;
    }
    setPhase('processing');
    try {
      const url = await checkout.mutateAsync({ roleIds, userId: user.id });
      setPhase('redirecting');
      if (platform.kind === 'desktop') {
        platform.openExternal(url);
        setPhase('idle');
      } else {
        window.location.assign(url);
      }
    } catch (error) {
      setPhase('idle');
      toast({
        variant: 'destructive',
        title: CHECKOUT_MESSAGES.activationFailedTitle,
        description:
          error instanceof Error && error.message ? error.message : CHECKOUT_MESSAGES.activationFailed,
      });
    }
  };
  return { phase, start };
}
