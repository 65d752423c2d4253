import { z } from 'zod';
import { authError } from './errors.ts';

/** Fields every auth-js body may carry and the server ignores (captcha is not configured locally). */
const base = {
  gotrue_meta_security: z.object({ captcha_token: z.string().optional() }).passthrough().optional(),
};

export const Email = z.string().trim().max(255).email('Unable to validate email address: invalid format');
export const Metadata = z.record(z.string(), z.unknown());
const Pkce = {
  code_challenge: z.string().max(256).nullish(),
  code_challenge_method: z.string().max(16).nullish(),
};

export const SignupBody = z.object({
  ...base,
  ...Pkce,
  email: Email.optional(),
  phone: z.string().max(32).optional(),
  password: z.string().max(1024).optional(),
  data: Metadata.nullish(),
  channel: z.string().optional(),
});

export const PasswordGrantBody = z.object({
  ...base,
  email: z.string().max(255).optional(),
  phone: z.string().max(32).optional(),
  password: z.string().max(1024),
});

export const RefreshGrantBody = z.object({ ...base, refresh_token: z.string().min(1).max(512) });

export const PkceGrantBody = z.object({
  ...base,
  auth_code: z.string().max(256).optional(),
  code_verifier: z.string().max(256).optional(),
});

export const EmailOtpType = z.enum(['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email']);

export const VerifyBody = z.object({
  ...base,
  type: z.enum(['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email', 'sms', 'phone_change']),
  token_hash: z.string().min(1).max(256).optional(),
  token: z.string().max(64).optional(),
  email: z.string().max(255).optional(),
  phone: z.string().max(32).optional(),
  redirect_to: z.string().max(2048).optional(),
  options: z.unknown().optional(),
});

export const RecoverBody = z.object({ ...base, ...Pkce, email: Email });

export const ResendBody = z.object({
  ...base,
  ...Pkce,
  type: z.enum(['signup', 'email_change', 'sms', 'phone_change']),
  email: Email.optional(),
  phone: z.string().max(32).optional(),
});

export const OtpBody = z.object({
  ...base,
  ...Pkce,
  email: Email.optional(),
  phone: z.string().max(32).optional(),
  data: Metadata.nullish(),
  create_user: z.boolean().optional(),
  channel: z.string().optional(),
});

export const UpdateUserBody = z.object({
  ...Pkce,
  email: Email.optional(),
  phone: z.string().max(32).optional(),
  password: z.string().max(1024).optional(),
  current_password: z.string().max(1024).optional(),
  nonce: z.string().max(64).optional(),
  data: Metadata.nullish(),
  channel: z.string().optional(),
});

/** GoTrue's validateEmail: required, at most 255 characters, a well-formed address; lower-cased. */
export function validEmail(raw: string | undefined): string {
  if (!raw) {
    throw authError(400, 'validation_failed', 'An email address is required');
  }
  if (raw.length > 255) {
    throw authError(400, 'validation_failed', 'An email address is too long');
  }
  if (!z.email().safeParse(raw).success) {
    throw authError(400, 'validation_failed', 'Unable to validate email address: invalid format');
  }
  return raw.toLowerCase();
}

/** GoTrue's validatePhone: E.164 digits once a leading + and spaces are removed; stored without the +. */
export function validPhone(raw: string): string {
  const phone = raw.replace(/^\+/, '').replaceAll(' ', '');
  if (!/^[1-9][0-9]{1,14}$/.test(phone)) {
    throw authError(400, 'validation_failed', 'Invalid phone number format (E.164 required)');
  }
  return phone;
}
