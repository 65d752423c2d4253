// Query keys of the reports feature.
export const reportKeys = {
  all: ['reports'] as const,
  generated: (userId: string) => ['reports', 'generated', userId] as const,
  configurations: (userId: string) => ['reports', 'configurations', userId] as const,
};
