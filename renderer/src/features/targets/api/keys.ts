// Query keys of the targets feature.
export const targetKeys = {
  all: ['scan-targets'] as const,
  list: (userId: string) => ['scan-targets', userId] as const,
};
