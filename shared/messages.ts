// The message catalogue of docs/product.md §8: what a person reads, in one place, so screens and tests agree.

export const MAX_ERROR_MESSAGE_LENGTH = 100;

export const AUTH_MESSAGES = {
  emailNotConfirmed: 'Please check your email to confirm your account before signing in.',
  invalidCredentials: 'Invalid email or password. Please try again.',
  alreadyRegistered: 'This email is already registered. Try signing in instead.',
  rateLimited: 'Too many attempts. Please try again later.',
  fallback: 'An error occurred during authentication',
  callbackFailed: 'Unable to authenticate. Please try logging in again.',
  callbackUnexpected: 'An unexpected error occurred during authentication.',
  missingCredentials: 'You must provide either an email or phone number and a password',
} as const;

export const TOASTS = {
  signedIn: { title: 'Signed in successfully' },
  accountCreated: {
    title: 'Account created successfully!',
    description: 'Please check your email to verify your account.',
  },
  signOutOk: { title: 'Signed out successfully', description: 'You have been signed out of your account.' },
  signOutFailed: { title: 'Sign out failed', description: 'Failed to sign out. Please try again.' },
  passwordUpdated: { title: 'Password Updated', description: 'Your password has been changed.' },
  resetLinkSent: { title: 'Password Reset Email Sent' },
  resetNeedsSession: {
    title: 'Reset link expired or invalid',
    description: 'Please request a new password reset link.',
  },
  ticketSubmitted: { title: 'Ticket Submitted', description: "We'll get back to you shortly." },
  chatOpened: { title: 'Chat Support', description: 'Our team is ready to assist you!' },
  issueReported: {
    title: 'Issue reported',
    description: 'Thank you for reporting this issue. Our team will investigate.',
  },
  subscriptionSuccess: {
    title: 'Subscription Successful!',
    description: 'Your security agents have been activated and are now protecting your systems.',
  },
} as const;

/** The error-boundary toast text for a caught render error with id `id`. */
export function crashToastDescription(id: string): string {
  return `The application encountered an unexpected error (ID: ${id}). Our team has been notified.`;
}

/** Cuts a message to 100 characters plus an ellipsis, so a server's long text cannot flood the screen. */
export function truncateMessage(message: string, max = MAX_ERROR_MESSAGE_LENGTH): string {
  return message.length > max ? `${message.slice(0, max)}...` : message;
}

function messageOf(error: unknown): string {
  if (typeof error === 'string') {
    return error;
  }
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return '';
}

/**
 * Maps an auth error to what the sign-in screen shows (docs/product.md §8): the known cases get friendly text,
 * other messages are shown cut to 100 characters, and an error without a message gets the default.
 */
export function authErrorMessage(error: unknown): string {
  const message = messageOf(error).trim();
  const lower = message.toLowerCase();
  if (lower.includes('email not confirmed')) {
    return AUTH_MESSAGES.emailNotConfirmed;
  }
  if (lower.includes('invalid login credentials')) {
    return AUTH_MESSAGES.invalidCredentials;
  }
  // GoTrue says "User already registered"; older servers say "Email already registered".
  if (lower.includes('already registered')) {
    return AUTH_MESSAGES.alreadyRegistered;
  }
  if (lower.includes('rate limit')) {
    return AUTH_MESSAGES.rateLimited;
  }
  if (message === '') {
    return AUTH_MESSAGES.fallback;
  }
  return truncateMessage(message);
}

/** What /auth/callback shows when the link failed: the URL's description, else the generic text. */
export function callbackErrorMessage(errorDescription: string | null | undefined): string {
  const text = errorDescription?.trim();
  return text ? truncateMessage(text) : AUTH_MESSAGES.callbackFailed;
}
