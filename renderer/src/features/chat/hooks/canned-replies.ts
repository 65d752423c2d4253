// The simulated support agent (docs/product.md §4): one of four replies, chosen at random, after 1.5 s.
export const CANNED_REPLIES = [
  'Thanks for reaching out! A security specialist is reviewing your message and will follow up shortly.',
  'I can help with that. Could you share a few more details about what you are seeing in your dashboard?',
  'Your agents are actively monitoring your systems. Is there a specific alert or scan you would like me to look into?',
  "Good question! You can find step-by-step guides in our documentation, and I'm happy to walk you through it here too.",
] as const;

export function pickReply(random: () => number = Math.random): string {
  const index = Math.min(CANNED_REPLIES.length - 1, Math.floor(random() * CANNED_REPLIES.length));
  return CANNED_REPLIES[index] ?? CANNED_REPLIES[0];
}

export interface ChatMessage {
  id: string;
  content: string;
  sender: 'user' | 'agent';
  timestamp: Date;
}

/** Send is allowed only when signed in and the trimmed input is not empty. */
export function canSend(signedIn: boolean, input: string): boolean {
  return signedIn && input.trim() !== '';
}
