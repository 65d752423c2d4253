import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { StackContext } from '../../context.ts';
import { isPgError } from '../../db/database.ts';
import { audit } from '../audit.ts';
import { AuthError, authError } from '../errors.ts';
import { requireFactorUser, type AuthEnv } from '../guard.ts';
import type { AuthLimits } from '../limits.ts';
import { clientIp, readBody } from '../request.ts';
import { addAmrClaim, insertRefreshToken, sessionResponse } from '../sessions.ts';
import { authSettings } from '../settings.ts';
import type { ChallengeRow, FactorKind, FactorRow } from './factor-kind.ts';
import { totpKind } from './totp.ts';
import { webauthnKind } from './webauthn.ts';

const KINDS: Record<string, FactorKind> = { totp: totpKind, webauthn: webauthnKind };

const EnrollBody = z
  .object({
    factor_type: z.string().max(32),
    friendly_name: z.string().max(255).optional(),
    issuer: z.string().max(255).optional(),
    phone: z.string().max(32).optional(),
  })
  .passthrough();
const ChallengeBody = z.object({ channel: z.string().optional() }).passthrough();
const VerifyBody = z.object({ challenge_id: z.string().max(64), code: z.unknown().optional() }).passthrough();

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
const challengeExpiry = (ctx: StackContext, kind: FactorKind) =>
  kind.challengeExpirySeconds?.(ctx) ?? authSettings(ctx.config).mfaChallengeExpirySeconds;
const factorNotFound = () => authError(404, 'mfa_factor_not_found', 'Factor not found');

/** POST /factors, POST /factors/:id/challenge, POST /factors/:id/verify, DELETE /factors/:id. */
export function mountFactors(app: Hono<AuthEnv>, ctx: StackContext, limits: AuthLimits): void {
  const loadFactor = async (userId: string, id: string): Promise<FactorRow> => {
    const { rows } = isUuid(id)
      ? await ctx.db.query<FactorRow>('select * from auth.mfa_factors where id = $1 and user_id = $2', [
          id,
          userId,
        ])
      : { rows: [] };
    const factor = rows[0];
    if (!factor) {
      throw factorNotFound();
    }
    return factor;
  };

  app.post('/factors', async (c) => {
    const { user, aal } = await requireFactorUser(ctx, c);
    const body = await readBody(c, EnrollBody);
    const kind = KINDS[body.factor_type];
    if (!kind) {
      throw authError(400, 'validation_failed', 'factor_type needs to be totp or webauthn');
    }
    const settings = authSettings(ctx.config);
    const counts = await ctx.db.query<{ total: number; verified: number }>(
      `select count(*)::int as total, count(*) filter (where status = 'verified')::int as verified
         from auth.mfa_factors where user_id = $1`,
      [user.id],
    );
    const { total = 0, verified = 0 } = counts.rows[0] ?? {};
    // With a verified factor, adding another must itself be proven with that factor.
    if (verified > 0 && aal !== 'aal2') {
      throw authError(422, 'insufficient_aal', 'AAL2 required to enroll a new factor');
    }
    if (total >= settings.maxEnrolledFactors) {
      throw authError(
        422,
        'too_many_enrolled_mfa_factors',
        'Maximum number of verified factors reached, unenroll to continue',
      );
    }
    const friendlyName = body.friendly_name ?? '';
    const { secret, response } = await kind.enroll(ctx, user, { friendlyName, issuer: body.issuer, body });
    const id = randomUUID();
    try {
      await ctx.db.query(
        `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret) values ($1, $2, $3, $4, 'unverified', $5)`,
        [id, user.id, friendlyName, kind.type, secret],
      );
    } catch (e) {
      // The unique (friendly_name, user_id) index: GoTrue's own code for it.
      if (isPgError(e) && e.code === '23505') {
        throw authError(
          422,
          'mfa_factor_name_conflict',
          `A factor with the friendly name "${friendlyName}" for this user already exists`,
        );
      }
      throw e;
    }
    return c.json({ id, type: kind.type, friendly_name: friendlyName, ...response });
  });

  app.post('/factors/:id/challenge', async (c) => {
    const { user } = await requireFactorUser(ctx, c);
    const body = await readBody(c, ChallengeBody);
    await limits.mfa(clientIp(c));
    const factor = await loadFactor(user.id, c.req.param('id'));
    const kind = KINDS[factor.factor_type];
    if (!kind) {
      throw factorNotFound();
    }
    const { response, sessionData } = await kind.challenge(ctx, factor, body);
    const id = randomUUID();
    const ip = clientIp(c);
    await ctx.db.transaction(async (tx) => {
      await tx.query(
        `insert into auth.mfa_challenges (id, factor_id, ip_address, web_authn_session_data) values ($1, $2, $3::inet, $4)`,
        [
          id,
          factor.id,
          /^[0-9a-f.:]+$/i.test(ip) ? ip : '0.0.0.0',
          sessionData === null ? null : JSON.stringify(sessionData),
        ],
      );
      await tx.query('update auth.mfa_factors set last_challenged_at = clock_timestamp() where id = $1', [
        factor.id,
      ]);
    });
    const expiresAt = Math.floor(Date.now() / 1000) + challengeExpiry(ctx, kind);
    return c.json({ id, type: factor.factor_type, expires_at: expiresAt, ...response });
  });

  app.post('/factors/:id/verify', async (c) => {
    const { user, sessionId } = await requireFactorUser(ctx, c);
    await limits.mfa(clientIp(c));
    const body = await readBody(c, VerifyBody);
    const factor = await loadFactor(user.id, c.req.param('id'));
    const kind = KINDS[factor.factor_type];
    if (!kind) {
      throw factorNotFound();
    }
    // Too many wrong codes or assertions for this factor lately, from wherever: refused before checking.
    await limits.checkFactor(factor.id);
    const expiry = challengeExpiry(ctx, kind);
    const session = await ctx.db
      .transaction(async (tx) => {
        const { rows } = isUuid(body.challenge_id)
          ? await tx.query<ChallengeRow & { expired: boolean }>(
              `select id, factor_id, web_authn_session_data, created_at + make_interval(secs => $3) < now() as expired
               from auth.mfa_challenges where id = $1 and factor_id = $2 and verified_at is null for update`,
              [body.challenge_id, factor.id, expiry],
            )
          : { rows: [] };
        const challenge = rows[0];
        if (!challenge) {
          throw authError(404, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
        }
        if (challenge.expired) {
          throw authError(
            422,
            'mfa_challenge_expired',
            `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
          );
        }
        if (!(await kind.verify(ctx, tx, factor, challenge, body))) {
          throw authError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
        }
        // Single use: a verified challenge cannot be replayed.
        await tx.query('update auth.mfa_challenges set verified_at = now() where id = $1', [challenge.id]);
        await tx.query(`update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`, [
          factor.id,
        ]);
        await tx.query(
          `update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1`,
          [sessionId, factor.id],
        );
        await addAmrClaim(tx, sessionId, kind.amr);
        await audit(tx, 'verification_attempted', user, clientIp(c), {
          factor_id: factor.id,
          factor_type: factor.factor_type,
          result: 'success',
        });
        // The session's older refresh tokens would mint aal1-era tokens; the upgraded session starts a new chain.
        await tx.query(
          'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false',
          [sessionId],
        );
        const token = await insertRefreshToken(tx, user.id, sessionId, null);
        return sessionResponse(ctx, tx, user, sessionId, token);
      })
      .catch(async (e: unknown) => {
        // A wrong TOTP code or a WebAuthn assertion that does not verify counts against the factor and the
        // challenge (outside the rolled-back transaction); a challenge that failed too often is spent.
        if (e instanceof AuthError && e.code === 'mfa_verification_failed' && isUuid(body.challenge_id)) {
          if (await limits.factorFailed(factor.id, body.challenge_id)) {
            await ctx.db.query('delete from auth.mfa_challenges where id = $1', [body.challenge_id]);
          }
          await audit(ctx.db, 'verification_attempted', user, clientIp(c), {
            factor_id: factor.id,
            factor_type: factor.factor_type,
            result: 'failure',
          });
        }
        throw e;
      });
    return c.json(session);
  });

  app.delete('/factors/:id', async (c) => {
    const { user, aal } = await requireFactorUser(ctx, c);
    const factor = await loadFactor(user.id, c.req.param('id'));
    // Removing a verified factor with only a password would let a password thief strip MFA.
    if (factor.status === 'verified' && aal !== 'aal2') {
      throw authError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
    }
    await ctx.db.transaction(async (tx) => {
      await tx.query('delete from auth.mfa_factors where id = $1', [factor.id]);
      await audit(tx, 'factor_unenrolled', user, clientIp(c), {
        factor_id: factor.id,
        factor_type: factor.factor_type,
      });
    });
    return c.json({ id: factor.id });
  });
}
