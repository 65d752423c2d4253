import type { StackConfig } from '../config.ts';

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
  rateLimits: {
    /** Window for the per-IP counters below. */
    windowSeconds: number;
    /** Sign-ups, password / PKCE grants, verify and OTP requests per IP per window. */
    signInSignUps: number;
    /** Refresh-token grants per IP per window. */
    tokenRefresh: number;
    /** Minimum seconds between two e-mails of one kind to one address (GoTrue SMTP max_frequency). */
    emailMinIntervalSeconds: number;
  };
}

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
  // Generous for one machine (tests and the desktop app sign in often from loopback), still bounded.
  rateLimits: { windowSeconds: 300, signInSignUps: 600, tokenRefresh: 1800, emailMinIntervalSeconds: 60 },
};

export type AuthSettingsPatch = Partial<Omit<AuthSettings, 'rateLimits'>> & {
  rateLimits?: Partial<AuthSettings['rateLimits']>;
};

export function authSettings(config: StackConfig): AuthSettings {
  const patch = config.auth ?? {};
  return {
    ...DEFAULT_AUTH_SETTINGS,
    ...patch,
    rateLimits: { ...DEFAULT_AUTH_SETTINGS.rateLimits, ...patch.rateLimits },
  };
}

/** Merges `patch` into the stack's auth settings (tests use it to lower limits and intervals). */
export function setAuthSettings(config: StackConfig, patch: AuthSettingsPatch): void {
  const current = config.auth ?? {};
  config.auth = {
    ...current,
    ...patch,
    rateLimits: { ...current.rateLimits, ...patch.rateLimits },
  };
}
