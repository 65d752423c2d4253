import type { Queryable } from '../db/database.ts';
import type { OutgoingMail, StackContext } from '../context.ts';
import { renderAuthEmail, type AuthEmailKind } from './email-templates.ts';
import { newOtp, storeToken, tokenHash, type OneTimeTokenType } from './one-time-tokens.ts';
import { createFlowState, type FlowMethod, type PkceChallenge } from './pkce.ts';
import { authSettings } from './settings.ts';

const TOKEN_TYPE: Record<AuthEmailKind, OneTimeTokenType> = {
  signup: 'confirmation_token',
  invite: 'confirmation_token',
  recovery: 'recovery_token',
  magiclink: 'recovery_token',
  email_change: 'email_change_token_new',
  email_change_current: 'email_change_token_current',
  reauthentication: 'reauthentication_token',
};

const FLOW: Record<AuthEmailKind, FlowMethod | null> = {
  signup: 'email/signup',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
  email_change_current: 'email_change',
  reauthentication: null,
};

/** The users column GoTrue stamps when each kind of e-mail goes out. */
const SENT_AT: Record<AuthEmailKind, string> = {
  signup: 'confirmation_sent_at',
  invite: 'invited_at',
  recovery: 'recovery_sent_at',
  magiclink: 'recovery_sent_at',
  email_change: 'email_change_sent_at',
  email_change_current: 'email_change_sent_at',
  reauthentication: 'reauthentication_sent_at',
};

export interface PreparedEmail {
  mail: OutgoingMail;
  otp: string;
  hashedToken: string;
  link: string | null;
}

/**
 * Creates the one-time token (and the PKCE flow state) for an auth e-mail and renders it. The caller sends
 * the mail after its transaction commits, so a link never points at a token that was rolled back.
 */
export async function prepareAuthEmail(
  ctx: StackContext,
  tx: Queryable,
  kind: AuthEmailKind,
  user: { id: string },
  address: string,
  redirectTo: string,
  pkce: PkceChallenge | null,
): Promise<PreparedEmail> {
  const otp = newOtp();
  const flow = FLOW[kind];
  const hashed = tokenHash(address, otp);
  const stored = pkce && flow ? `pkce_${hashed}` : hashed;
  if (pkce && flow) {
    await createFlowState(tx, user.id, pkce, flow);
  }
  await storeToken(tx, user.id, TOKEN_TYPE[kind], stored, address);
  await tx.query(`update auth.users set ${SENT_AT[kind]} = now() where id = $1`, [user.id]);
  const link =
    kind === 'reauthentication'
      ? null
      : `${ctx.config.publicUrl}/auth/v1/verify?token=${stored}&type=${kind === 'email_change_current' ? 'email_change' : kind}&redirect_to=${encodeURIComponent(redirectTo)}`;
  const minutes = Math.round(authSettings(ctx.config).otpExpirySeconds / 60);
  return { mail: renderAuthEmail(kind, address, otp, link, minutes), otp, hashedToken: stored, link };
}
