// Query keys of the billing feature; under 'subscription' so 'subscription-changes' refreshes them.
export const billingKeys = {
  all: ['subscription'] as const,
  summary: (userId: string) => ['subscription', 'summary', userId] as const,
};
