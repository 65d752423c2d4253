import { createHash, randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { authError } from './errors.ts';

/** A PKCE challenge as supabase-js sends it. */
export interface PkceChallenge {
  challenge: string;
  method: 's256' | 'plain';
}

/** GoTrue's authentication_method values, also the amr method of the session a flow ends in. */
export type FlowMethod = 'email/signup' | 'recovery' | 'magiclink' | 'email_change' | 'invite' | 'otp';

const CHALLENGE = /^[a-zA-Z0-9._~-]{43,128}$/;

/** Validates the optional pair; null when the client is not doing PKCE (both absent or null). */
export function parsePkce(
  challenge: string | null | undefined,
  method: string | null | undefined,
): PkceChallenge | null {
  if (!challenge && !method) {
    return null;
  }
  // Half a PKCE request would silently downgrade to the implicit flow.
  if (!challenge || !method) {
    throw authError(400, 'validation_failed', 'PKCE flow requires code_challenge_method and code_challenge');
  }
  if (!CHALLENGE.test(challenge)) {
    throw authError(400, 'validation_failed', 'code challenge has to be between 43 and 128 characters');
  }
  const m = method.toLowerCase();
  if (m !== 's256' && m !== 'plain') {
    throw authError(400, 'validation_failed', 'code challenge method not supported');
  }
  return { challenge, method: m };
}

/** base64url(sha256(verifier)) for s256, the verifier itself for plain. Exported for clients and tests. */
export function codeChallengeFor(verifier: string, method: 's256' | 'plain'): string {
  return method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
}

export async function createFlowState(
  tx: Queryable,
  userId: string,
  pkce: PkceChallenge,
  method: FlowMethod,
): Promise<void> {
  await tx.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type, authentication_method)
     values ($1, $2, $3, $4, $5, 'email', $6)`,
    [randomUUID(), userId, randomUUID(), pkce.method, pkce.challenge, method],
  );
}

/** After a pkce_ link is verified: stamps the user's newest flow of that kind and returns its auth code. */
export async function issueAuthCode(
  tx: Queryable,
  userId: string,
  method: FlowMethod,
): Promise<string | null> {
  const { rows } = await tx.query<{ auth_code: string }>(
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
      where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                   order by created_at desc limit 1)
      returning auth_code`,
    [userId, method],
  );
  return rows[0]?.auth_code ?? null;
}

/** Consumes a flow state for grant_type=pkce: 404 unknown, 422 expired, 400 wrong verifier. */
export async function consumeFlowState(
  tx: Queryable,
  authCode: string,
  verifier: string,
  expirySeconds: number,
): Promise<{ userId: string; method: FlowMethod }> {
  const { rows } = await tx.query<{
    id: string;
    user_id: string | null;
    code_challenge: string;
    code_challenge_method: 's256' | 'plain';
    authentication_method: FlowMethod;
    expired: boolean;
  }>(
    `select id, user_id, code_challenge, code_challenge_method, authentication_method,
            auth_code_issued_at + make_interval(secs => $2) < now() as expired
       from auth.flow_state where auth_code = $1 and auth_code_issued_at is not null for update`,
    [authCode, expirySeconds],
  );
  const flow = rows[0];
  if (!flow || !flow.user_id) {
    throw authError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
  }
  if (flow.expired) {
    await tx.query('delete from auth.flow_state where id = $1', [flow.id]);
    throw authError(422, 'flow_state_expired', 'invalid flow state, flow state has expired');
  }
  if (codeChallengeFor(verifier, flow.code_challenge_method) !== flow.code_challenge) {
    throw authError(400, 'bad_code_verifier', 'code challenge does not match previously saved code verifier');
  }
  await tx.query('delete from auth.flow_state where id = $1', [flow.id]);
  return { userId: flow.user_id, method: flow.authentication_method };
}
