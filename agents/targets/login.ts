// A target's saved login, opened for one authenticated web scan. The sealed row is read with the service
// key and opened with this worker's credentials key (never stored in the database); a login that cannot
// be opened (no key here, another key, an altered row) does not stop the scan: it runs without logging
// in, and its result says why.
import type { LoginReport } from '../scanners/core/context.ts';
import type { ServiceClient } from '../queue/client.ts';
import { openLogin, SealError } from '../../shared/sealed-login.ts';
import type { TargetLogin } from '../../shared/target-login.ts';

const loginKinds = ['form', 'cookie', 'header'] as const satisfies readonly TargetLogin['kind'][];
import type { ScanTargetRow } from './target.ts';

export type OpenedLogin = { login: TargetLogin } | { failed: LoginReport } | null;

export async function targetLogin(
  db: ServiceClient,
  target: Pick<ScanTargetRow, 'id' | 'user_id'>,
  credentialsKey: string | undefined,
): Promise<OpenedLogin> {
  const { data, error } = await db
    .from('scan_target_logins')
    .select('kind, sealed')
    .eq('target_id', target.id)
    .eq('user_id', target.user_id)
    .maybeSingle();
  if (error) {
    throw new Error(`reading the target's login failed: ${error.message}`);
  }
  if (!data) {
    return null;
  }
  // The table's check constraint allows these three only.
  const kind = loginKinds.find((k) => k === data.kind) ?? 'form';
  const failed = (detail: string): OpenedLogin => ({
    failed: { kind, status: 'failed', detail: `${detail} The scan ran without logging in.`, renewals: 0 },
  });
  if (!credentialsKey) {
    return failed(
      'A login is saved for this target, but this agent worker has no credentials key (VIGIL_CREDENTIALS_KEY).',
    );
  }
  try {
    return {
      login: await openLogin(credentialsKey, data.sealed, { userId: target.user_id, targetId: target.id }),
    };
  } catch (e) {
    if (e instanceof SealError) {
      return failed(e.message);
    }
    throw e;
  }
}
