// What the agents and checkout screens say (docs/product.md §5 and §8).
export const CHECKOUT_MESSAGES = {
  noAgents: 'No agents selected: Please select at least one agent to proceed',
  notLoggedIn: 'You must be logged in to activate security agents',
  noUrl: 'No checkout URL received',
  activationFailedTitle: 'Agent Activation Failed',
  activationFailed: 'There was a problem activating your security agents. Please try again.',
  noTrialTitle: 'No free trial: you already had one',
  noTrial: 'Each customer gets one 7-day free trial. Your subscription starts when you pay; cancel anytime.',
} as const;
