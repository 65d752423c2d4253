import { describe, expect, it } from 'vitest';

import {
  forgotPasswordSchema,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
  ticketSchema,
} from './validation.ts';

function firstMessage(result: {
  success: boolean;
  error?: { issues: { message: string }[] };
}): string | undefined {
  return result.error?.issues[0]?.message;
}

describe('signInSchema', () => {
  it('accepts an email and a 6-character password', () => {
    expect(signInSchema.safeParse({ email: ' a@b.co ', password: '123456' })).toMatchObject({
      success: true,
      data: { email: 'a@b.co' },
    });
  });
  it('rejects short passwords with the sign-in text', () => {
    expect(firstMessage(signInSchema.safeParse({ email: 'a@b.co', password: '12345' }))).toBe(
      'Password must be at least 6 characters long',
    );
  });
  it('rejects missing and malformed e-mail', () => {
    expect(firstMessage(signInSchema.safeParse({ email: '', password: '123456' }))).toBe('Email is required');
    expect(firstMessage(signInSchema.safeParse({ email: 'not-an-email', password: '123456' }))).toBe(
      'Please enter a valid email address',
    );
    expect(signInSchema.safeParse({ email: 'a@b.co<script>', password: '123456' }).success).toBe(false);
  });
});

describe('signUpSchema', () => {
  const valid = {
    email: 'a@b.co',
    password: 'secret1',
    fullName: 'Ada',
    companyName: 'Acme',
    industryType: 'Retail',
  };
  it('accepts a complete sign-up', () => {
    expect(signUpSchema.safeParse(valid).success).toBe(true);
  });
  it('requires an industry from the list', () => {
    expect(firstMessage(signUpSchema.safeParse({ ...valid, industryType: '' }))).toBe(
      'Please select an industry type',
    );
    expect(firstMessage(signUpSchema.safeParse({ ...valid, industryType: 'Piracy' }))).toBe(
      'Please select an industry type',
    );
  });
  it('requires full name and company name, not just spaces', () => {
    expect(firstMessage(signUpSchema.safeParse({ ...valid, fullName: '   ' }))).toBe('Full name is required');
    expect(firstMessage(signUpSchema.safeParse({ ...valid, companyName: '' }))).toBe(
      'Company name is required',
    );
  });
});

describe('password reset schemas', () => {
  it('requires matching passwords of 6 characters', () => {
    expect(resetPasswordSchema.safeParse({ password: 'secret1', confirmPassword: 'secret1' }).success).toBe(
      true,
    );
    expect(
      firstMessage(resetPasswordSchema.safeParse({ password: 'secret1', confirmPassword: 'secret2' })),
    ).toBe("Passwords don't match");
    expect(firstMessage(resetPasswordSchema.safeParse({ password: '123', confirmPassword: '123' }))).toBe(
      'Password must be at least 6 characters',
    );
  });
  it('requires an email to request a link', () => {
    expect(firstMessage(forgotPasswordSchema.safeParse({ email: '' }))).toBe('Email is required');
  });
});

describe('ticketSchema', () => {
  it('requires priority, subject and description', () => {
    expect(
      ticketSchema.safeParse({ priority: 'high', subject: 'VPN down', description: 'Since 9am' }).success,
    ).toBe(true);
    const result = ticketSchema.safeParse({ priority: '', subject: ' ', description: '' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Please select a priority',
      'Subject is required',
      'Description is required',
    ]);
  });
});
