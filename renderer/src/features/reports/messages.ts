// The Reports page's toasts (docs/product.md §8.5).
export const REPORT_TOASTS = {
  configurationCreated: { title: 'Configuration created' },
  saveFailed: {
    title: 'Error',
    description: 'There was an error saving your configuration.',
    variant: 'destructive',
  },
  toggleFailed: {
    title: 'Error',
    description: 'Failed to update configuration status.',
    variant: 'destructive',
  },
  downloadStarted: { title: 'Report download started' },
  downloadFailed: { title: 'Download failed', variant: 'destructive' },
  generateStarted: {
    title: 'Report generation started',
    description: 'It appears under Generated Reports when it is ready.',
  },
  generateFailed: {
    title: 'Error',
    description: 'The report could not be started. Please try again.',
    variant: 'destructive',
  },
} as const;

/** Reports are paid (docs/product.md §14): the server's refusal (402, PT402) says what to activate and where. */
export const agentRequiredToast = (message: string) =>
  ({ title: 'An active agent is needed', description: message, variant: 'destructive' }) as const;
