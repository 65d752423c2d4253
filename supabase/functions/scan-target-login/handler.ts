import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { keyId, sealLogin } from '../../../shared/sealed-login.ts';
import { loginSummary, TargetLogin } from '../../../shared/target-login.ts';
import { parseBody } from '../_shared/body.ts';
import { requireUser } from '../_shared/clients.ts';
import { getEnv } from '../_shared/env.ts';
import { HttpError, json, withErrors } from '../_shared/http.ts';

const Body = z.discriminatedUnion('action', [
  z.object({ action: z.literal('save'), targetId: z.uuid(), login: TargetLogin }),
  z.object({ action: z.literal('delete'), targetId: z.uuid() }),
]);

interface TargetRow {
  id: string;
  user_id: string;
  kind: string;
  value: string;
}

/** One of the caller's own targets; another customer's target is simply not found. */
async function ownTarget(admin: SupabaseClient, userId: string, targetId: string): Promise<TargetRow> {
  const { data, error } = await admin
    .from('scan_targets')
    .select('id, user_id, kind, value')
    .eq('id', targetId)
    .eq('user_id', userId)
    .maybeSingle<TargetRow>();
  if (error) {
    throw new Error(`reading scan_targets failed: ${error.message}`);
  }
  if (!data) {
    throw new HttpError(404, 'No such scan target. Add it under your targets first.');
  }
  return data;
}

/**
 * scan-target-login: saves (or deletes) the login an authenticated web scan of a target signs in with.
 * - save {targetId, login} → {saved: true, kind, login_url}: the login is validated, sealed with
 *   AES-256-GCM under VIGIL_CREDENTIALS_KEY (a function secret; never in the database) and stored where
 *   only the service role can read it. The answer, like every later read, carries no credential.
 * - delete {targetId} → {deleted: true}.
 */
export default withErrors(async function handler(req: Request): Promise<Response> {
  if (req.method !== 'POST') {
    throw new HttpError(405, 'Use POST');
  }
  const { user, clients } = await requireUser(req);
  const body = await parseBody(req, Body);
  const admin = clients.admin;
  const target = await ownTarget(admin, user.id, body.targetId);
  if (body.action === 'delete') {
    const removed = await admin
      .from('scan_target_logins')
      .delete()
      .eq('target_id', target.id)
      .eq('user_id', user.id);
    if (removed.error) {
      throw new Error(`deleting the login failed: ${removed.error.message}`);
    }
    const cleared = await admin
      .from('scan_targets')
      .update({ login_kind: null, login_url: null, login_updated_at: null })
      .eq('id', target.id);
    if (cleared.error) {
      throw new Error(`updating the target failed: ${cleared.error.message}`);
    }
    return json({ deleted: true });
  }
  if (target.kind !== 'url') {
    throw new HttpError(422, 'Logins are for website targets: the web scan signs in before it crawls.');
  }
  const login = body.login;
  if (login.kind === 'form' && new URL(login.login_url).origin !== new URL(target.value).origin) {
    throw new HttpError(
      422,
      `The login page must be on the target's own site (${new URL(target.value).origin}).`,
    );
  }
  const key = getEnv('VIGIL_CREDENTIALS_KEY');
  if (!key) {
    // A deployment fault, said plainly: without the key nothing could ever be opened again.
    throw new HttpError(
      503,
      'Saving logins is not configured on this server (VIGIL_CREDENTIALS_KEY is not set).',
    );
  }
  const sealed = await sealLogin(key, login, { userId: user.id, targetId: target.id });
  const stored = await admin
    .from('scan_target_logins')
    .upsert(
      { target_id: target.id, user_id: user.id, kind: login.kind, sealed, key_id: await keyId(key) },
      { onConflict: 'target_id' },
    );
  if (stored.error) {
    throw new Error(`storing the login failed: ${stored.error.message}`);
  }
  const summary = loginSummary(login);
  const updated = await admin
    .from('scan_targets')
    .update({
      login_kind: summary.kind,
      login_url: summary.login_url,
      login_updated_at: new Date().toISOString(),
    })
    .eq('id', target.id);
  if (updated.error) {
    throw new Error(`updating the target failed: ${updated.error.message}`);
  }
  return json({ saved: true, ...summary });
});
