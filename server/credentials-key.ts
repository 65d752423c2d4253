// The key that seals scan-target logins (shared/sealed-login.ts), kept out of the database: the operator's
// VIGIL_CREDENTIALS_KEY when set, else a key file in the data dir created on first start (readable by the
// owner only, like the signing key), or a fresh key per process for an in-memory stack. Losing the file
// loses the saved logins (they no longer open; customers save them again), never the database.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { keyBytes, newCredentialsKey } from '../shared/sealed-login.ts';

export const credentialsKeyFile = (dataDir: string) => path.join(dataDir, 'credentials-key');

export async function openCredentialsKey(dataDir: string, configured: string | undefined): Promise<string> {
  if (configured) {
    keyBytes(configured);
    return configured;
  }
  if (dataDir === 'memory') {
    return newCredentialsKey();
  }
  const file = credentialsKeyFile(dataDir);
  if (existsSync(file)) {
    const stored = (await readFile(file, 'utf8')).trim();
    // Guard: a damaged key file is an error to fix, never silently replaced (that would orphan every login).
    keyBytes(stored);
    return stored;
  }
  const key = newCredentialsKey();
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
