// Query keys of the alerts feature; a change of events, findings or recommendations refreshes 'alerts'.
export const alertKeys = {
  all: ['alerts'] as const,
  events: (userId: string) => ['alerts', 'events', userId] as const,
  insights: (userId: string) => ['alerts', 'insights', userId] as const,
  recommendations: (userId: string) => ['alerts', 'recommendations', userId] as const,
  findings: (userId: string, ref: unknown) => ['alerts', 'findings', userId, ref] as const,
};
