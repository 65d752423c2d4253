// Query keys of the agents feature. Everything that follows the subscription starts with 'subscription',
// so the realtime 'subscription-changes' channel refreshes it with one prefix.
export const agentKeys = {
  roles: ['agent-roles', 'dashboard'] as const,
  status: (userId: string) => ['ai-agents-status', userId] as const,
  subscriptions: (userId: string) => ['subscription', 'agents', userId] as const,
  trial: (userId: string) => ['subscription', 'trial', userId] as const,
};
