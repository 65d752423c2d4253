import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';

/** Tunables of /auth/v1 with GoTrue-like defaults; tests lower them through setAuthSettings(). */
export interface AuthSettings {
  accessTokenTtlSeconds: number;
  /** A rotated refresh token may be presented again within this window (GoTrue refresh_token_reuse_interval). */
  refreshReuseIntervalSeconds: number;
  otpExpirySeconds: number;
  /** How long an issued PKCE auth code stays exchangeable (GoTrue flow state expiry). */
  flowStateExpirySeconds: number;
  mfaChallengeExpirySeconds: number;
  maxEnrolledFactors: number;
  minPasswordLength: number;
  maxBodyBytes: number;
  /** GoTrue's secure e-mail change: both the current and the new address must confirm. */
  secureEmailChange: boolean;
  /**
   * Anonymous sign-ins (`[auth] enable_anonymous_sign_ins` in supabase/config.toml, off unless switched on,
   * as in GoTrue): POST /signup without e-mail or phone signs in a new user with is_anonymous true.
   */
  anonymousSignIns: boolean;
  /**
   * Token buckets as GoTrue keeps them (a burst of up to 30, refilled at the configured rate), per IP
   * address unless said otherwise. The defaults are supabase/config.toml's `[auth.rate_limit]`, the settings
   * the Supabase CLI hands to GoTrue.
   */
  rateLimits: {
    /** Sign-ups, password and PKCE grants, OTP, magic link, recover and resend per IP per 5 minutes; also
     * failed password sign-ins per account per 5 minutes (sign_in_sign_ups). */
    signInSignUps: number;
    /** Anonymous sign-ins per IP per hour (anonymous_users); they do not count as sign-ups. */
    anonymousUsers: number;
    /** Refresh-token grants per IP per 5 minutes (token_refresh). */
    tokenRefresh: number;
    /** E-mail link and OTP verifications per IP per 5 minutes (token_verifications). */
    tokenVerifications: number;
    /** MFA challenge and verify requests per IP per minute (GoTrue's MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY). */
    mfaChallengeAndVerify: number;
    /** Failed MFA verifications (TOTP codes, WebAuthn assertions) per factor per hour. */
    mfaFailuresPerFactor: number;
    /** Failed verifications after which a challenge is spent (a new one must be asked for). */
    mfaFailuresPerChallenge: number;
    /** Minimum seconds between two e-mails of one kind to one address (GoTrue SMTP max_frequency). */
    emailMinIntervalSeconds: number;
  };
}

/** The part of supabase/config.toml the auth server reads, as the Supabase CLI defines it. */
const AuthToml = z
  .object({
    auth: z
      .object({
        enable_anonymous_sign_ins: z.boolean().optional(),
        rate_limit: z
          .object({
            sign_in_sign_ups: z.number().int().positive().optional(),
            anonymous_users: z.number().int().positive().optional(),
            token_refresh: z.number().int().positive().optional(),
            token_verifications: z.number().int().positive().optional(),
          })
          .loose()
          .optional(),
        email: z
          .object({
            max_frequency: z
              .string()
              .regex(/^(\d+h)?(\d+m)?(\d+s)?$/)
              .optional(),
          })
          .loose()
          .optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

/** Go's duration notation as the CLI writes it ("1m0s", "90s", "1h"). */
function goDurationSeconds(text: string): number {
  const [, h = '0', m = '0', s = '0'] = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text) ?? [];
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

export const CONFIG_TOML = path.resolve(import.meta.dirname, '../../supabase/config.toml');

/** The rate limits supabase/config.toml declares (GoTrue's own defaults where it is silent). */
export function rateLimitsFromToml(file = CONFIG_TOML): AuthSettings['rateLimits'] {
  const parsed = AuthToml.safeParse(parseToml(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: [${issue?.path.join('.') ?? ''}] ${issue?.message ?? 'invalid'}`);
  }
  const limits = parsed.data.auth?.rate_limit ?? {};
  const maxFrequency = parsed.data.auth?.email?.max_frequency;
  return {
    signInSignUps: limits.sign_in_sign_ups ?? 30,
    anonymousUsers: limits.anonymous_users ?? 30,
    tokenRefresh: limits.token_refresh ?? 150,
    tokenVerifications: limits.token_verifications ?? 30,
    mfaChallengeAndVerify: 15,
    mfaFailuresPerFactor: 10,
    mfaFailuresPerChallenge: 5,
    emailMinIntervalSeconds: maxFrequency ? goDurationSeconds(maxFrequency) : 60,
  };
}

/** Whether supabase/config.toml switches anonymous sign-ins on (GoTrue's default: off). */
export function anonymousSignInsFromToml(file = CONFIG_TOML): boolean {
  const parsed = AuthToml.safeParse(parseToml(readFileSync(file, 'utf8')));
  return parsed.success ? (parsed.data.auth?.enable_anonymous_sign_ins ?? false) : false;
}

let tomlLimits: AuthSettings['rateLimits'] | undefined;
let tomlAnonymous: boolean | undefined;

export const DEFAULT_AUTH_SETTINGS: AuthSettings = {
  accessTokenTtlSeconds: 3600,
  refreshReuseIntervalSeconds: 10,
  otpExpirySeconds: 3600,
  flowStateExpirySeconds: 300,
  mfaChallengeExpirySeconds: 300,
  maxEnrolledFactors: 10,
  minPasswordLength: 6,
  maxBodyBytes: 64 * 1024,
  secureEmailChange: true,
  anonymousSignIns: false,
  rateLimits: {
    signInSignUps: 30,
    anonymousUsers: 30,
    tokenRefresh: 150,
    tokenVerifications: 30,
    mfaChallengeAndVerify: 15,
    mfaFailuresPerFactor: 10,
    mfaFailuresPerChallenge: 5,
    emailMinIntervalSeconds: 60,
  },
};

/** Rate limits high enough never to refuse: for test suites and benchmarks that sign in from one address. */
export const UNLIMITED_RATE_LIMITS: Partial<AuthSettings['rateLimits']> = {
  signInSignUps: 1_000_000,
  anonymousUsers: 1_000_000,
  tokenRefresh: 1_000_000,
  tokenVerifications: 1_000_000,
  mfaChallengeAndVerify: 1_000_000,
  mfaFailuresPerFactor: 1_000_000,
};

export type AuthSettingsPatch = Partial<Omit<AuthSettings, 'rateLimits'>> & {
  rateLimits?: Partial<AuthSettings['rateLimits']>;
};

/** The part of the stack's configuration (server/config.ts) that holds the auth tunables. */
interface WithAuthSettings {
  auth?: AuthSettingsPatch;
}

export function authSettings(config: WithAuthSettings): AuthSettings {
  const patch = config.auth ?? {};
  tomlLimits ??= rateLimitsFromToml();
  tomlAnonymous ??= anonymousSignInsFromToml();
  return {
    ...DEFAULT_AUTH_SETTINGS,
    anonymousSignIns: tomlAnonymous,
    ...patch,
    rateLimits: { ...tomlLimits, ...patch.rateLimits },
  };
}

/** Merges `patch` into the stack's auth settings (tests use it to lower limits and intervals). */
export function setAuthSettings(config: WithAuthSettings, patch: AuthSettingsPatch): void {
  const current = config.auth ?? {};
  config.auth = {
    ...current,
    ...patch,
    rateLimits: { ...current.rateLimits, ...patch.rateLimits },
  };
}
