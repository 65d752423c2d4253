import { describe, expect, it } from 'vitest';

import {
  AUTH_MESSAGES,
  authErrorMessage,
  callbackErrorMessage,
  crashToastDescription,
  truncateMessage,
} from './messages.ts';

describe('authErrorMessage', () => {
  it('maps the known server messages', () => {
    expect(authErrorMessage(new Error('Email not confirmed'))).toBe(
      'Please check your email to confirm your account before signing in.',
    );
    expect(authErrorMessage({ message: 'Invalid login credentials' })).toBe(
      'Invalid email or password. Please try again.',
    );
    expect(authErrorMessage('Email already registered')).toBe(
      'This email is already registered. Try signing in instead.',
    );
    expect(authErrorMessage(new Error('User already registered'))).toBe(AUTH_MESSAGES.alreadyRegistered);
    expect(authErrorMessage(new Error('Email rate limit exceeded'))).toBe(
      'Too many attempts. Please try again later.',
    );
    expect(authErrorMessage(new Error('Request rate limit reached'))).toBe(AUTH_MESSAGES.rateLimited);
  });
  it('falls back to the default for errors without a message', () => {
    expect(authErrorMessage(undefined)).toBe('An error occurred during authentication');
    expect(authErrorMessage(null)).toBe(AUTH_MESSAGES.fallback);
    expect(authErrorMessage(new Error(''))).toBe(AUTH_MESSAGES.fallback);
    expect(authErrorMessage({ message: 42 })).toBe(AUTH_MESSAGES.fallback);
  });
  it('shows other messages, cut to 100 characters plus an ellipsis', () => {
    expect(authErrorMessage(new Error('Signups not allowed for this instance'))).toBe(
      'Signups not allowed for this instance',
    );
    const long = 'x'.repeat(150);
    expect(authErrorMessage(new Error(long))).toBe(`${'x'.repeat(100)}...`);
    expect(authErrorMessage(new Error('y'.repeat(100)))).toBe('y'.repeat(100));
    expect(authErrorMessage(new Error('z'.repeat(101)))).toBe(`${'z'.repeat(100)}...`);
  });
});

describe('truncateMessage', () => {
  it('keeps short text and cuts long text', () => {
    expect(truncateMessage('short')).toBe('short');
    expect(truncateMessage('abcdef', 3)).toBe('abc...');
  });
});

describe('callbackErrorMessage', () => {
  it('prefers the description from the URL', () => {
    expect(callbackErrorMessage('Email link is invalid or has expired')).toBe(
      'Email link is invalid or has expired',
    );
    expect(callbackErrorMessage('a'.repeat(300))).toHaveLength(103);
  });
  it('uses the generic text otherwise', () => {
    expect(callbackErrorMessage(null)).toBe('Unable to authenticate. Please try logging in again.');
    expect(callbackErrorMessage('   ')).toBe(AUTH_MESSAGES.callbackFailed);
  });
});

it('formats the crash toast with the error ID', () => {
  expect(crashToastDescription('err_1_abc')).toBe(
    'The application encountered an unexpected error (ID: err_1_abc). Our team has been notified.',
  );
});
