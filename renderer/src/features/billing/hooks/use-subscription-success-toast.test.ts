import { describe, expect, it } from 'vitest';

import { isSubscriptionSuccess } from './use-subscription-success-toast.ts';

describe('isSubscriptionSuccess', () => {
  it('needs session_id and success equal to the text true', () => {
    expect(isSubscriptionSuccess(new URLSearchParams('session_id=cs_1&success=true'))).toBe(true);
    expect(isSubscriptionSuccess(new URLSearchParams('session_id=cs_1&success=TRUE'))).toBe(false);
    expect(isSubscriptionSuccess(new URLSearchParams('success=true'))).toBe(false);
    expect(isSubscriptionSuccess(new URLSearchParams('session_id=&success=true'))).toBe(false);
    expect(isSubscriptionSuccess(new URLSearchParams('session_id=cs_1&success=1'))).toBe(false);
  });
});
