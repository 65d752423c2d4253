// The subscription-success screen (docs/product.md §2): after checkout the buyer lands on
// /dashboard?session_id=…&success=true and sees 'Subscription Successful!' once.
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';

import { TOASTS } from '../../../../../shared/messages.ts';
import { toast } from '../../../hooks/use-toast.ts';

export function isSubscriptionSuccess(params: URLSearchParams): boolean {
  return Boolean(params.get('session_id')) && params.get('success') === 'true';
}

export function useSubscriptionSuccessToast(): void {
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    if (!isSubscriptionSuccess(params)) {
      return;
    }
    toast(TOASTS.subscriptionSuccess);
    // Dropping the parameters keeps a reload from showing the toast again.
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('session_id');
        next.delete('success');
        return next;
      },
      { replace: true },
    );
  }, [params, setParams]);
}
