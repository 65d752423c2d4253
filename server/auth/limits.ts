import type { StackContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { Errors } from './errors.ts';
import { perInterval, RateLimiter } from './rate-limit.ts';
import { authSettings } from './settings.ts';

const FIVE_MINUTES = 300;

/**
 * The auth server's limits, named for what they protect (settings in server/auth/settings.ts, from
 * supabase/config.toml). Each `check` takes a token and throws GoTrue's 429 over_request_rate_limit when
 * the bucket is empty.
 */
export class AuthLimits {
  readonly limiter: RateLimiter;

  constructor(private readonly ctx: StackContext) {
    this.limiter = new RateLimiter(ctx.db);
  }

  private get settings() {
    return authSettings(this.ctx.config).rateLimits;
  }

  private async check(key: string, bucket: ReturnType<typeof perInterval>, db?: Queryable): Promise<void> {
    if (!(await this.limiter.take(key, bucket, db))) {
      throw Errors.rateLimited();
    }
  }

  /** Sign-ups, password and PKCE grants, and the e-mail sending endpoints, per IP (sign_in_sign_ups). */
  signIn(ip: string, db?: Queryable): Promise<void> {
    return this.check(`signin:ip:${ip}`, perInterval(this.settings.signInSignUps, FIVE_MINUTES), db);
  }

  /** Anonymous sign-ins per IP per hour (anonymous_users). */
  anonymousSignIn(ip: string): Promise<void> {
    return this.check(`anonymous:ip:${ip}`, perInterval(this.settings.anonymousUsers, 3600));
  }

  /** Refresh-token grants per IP (token_refresh). */
  refresh(ip: string): Promise<void> {
    return this.check(`refresh:ip:${ip}`, perInterval(this.settings.tokenRefresh, FIVE_MINUTES));
  }

  /** E-mail link and OTP verifications per IP (token_verifications). */
  verify(ip: string): Promise<void> {
    return this.check(`verify:ip:${ip}`, perInterval(this.settings.tokenVerifications, FIVE_MINUTES));
  }

  /** MFA challenges and verifications per IP, as GoTrue limits them (per minute, a burst of 30 whatever the rate). */
  mfa(ip: string): Promise<void> {
    return this.check(`mfa:ip:${ip}`, {
      capacity: 30,
      refillPerSecond: this.settings.mfaChallengeAndVerify / 60,
    });
  }

  private accountBucket = () => perInterval(this.settings.signInSignUps, FIVE_MINUTES);

  /**
   * Failed password sign-ins of one account, from any address: once they reach sign_in_sign_ups in five
   * minutes, the account's password sign-in is refused (the right password too) until the bucket refills.
   */
  async checkAccount(email: string): Promise<void> {
    if (!(await this.limiter.hasToken(`signin:account:${email.toLowerCase()}`, this.accountBucket()))) {
      throw Errors.rateLimited();
    }
  }

  async accountFailed(email: string): Promise<void> {
    await this.limiter.take(`signin:account:${email.toLowerCase()}`, this.accountBucket());
  }

  private factorBucket = () =>
    perInterval(this.settings.mfaFailuresPerFactor, 3600, this.settings.mfaFailuresPerFactor);

  /** Failed second-factor verifications of one factor (TOTP codes and WebAuthn assertions alike). */
  async checkFactor(factorId: string): Promise<void> {
    if (!(await this.limiter.hasToken(`mfa:factor:${factorId}`, this.factorBucket()))) {
      throw Errors.rateLimited();
    }
  }

  /**
   * Records a failed verification of `factorId` through `challengeId`; answers whether the challenge is
   * now spent (mfa_failures_per_challenge failures: a new challenge must be asked for).
   */
  async factorFailed(factorId: string, challengeId: string): Promise<boolean> {
    await this.limiter.take(`mfa:factor:${factorId}`, this.factorBucket());
    // A challenge lives minutes: its bucket does not refill within that time.
    const perChallenge = { capacity: this.settings.mfaFailuresPerChallenge, refillPerSecond: 1e-9 };
    await this.limiter.take(`mfa:challenge:${challengeId}`, perChallenge);
    return !(await this.limiter.hasToken(`mfa:challenge:${challengeId}`, perChallenge));
  }

  /** GoTrue's per-address spacing of e-mails of one kind (SMTP max_frequency); throws when too soon. */
  async emailSpacing(kind: string, address: string, db?: Queryable): Promise<void> {
    const wait = await this.limiter.emailWait(kind, address, this.settings.emailMinIntervalSeconds, db);
    if (wait > 0) {
      throw Errors.emailRateLimited(wait);
    }
  }
}
