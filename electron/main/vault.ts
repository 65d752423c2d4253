/**
 * The token vault: supabase-js in the renderer keeps its session and PKCE verifier here, through an async
 * storage adapter over IPC. Values are encrypted with Electron's safeStorage (Keychain, DPAPI,
 * libsecret/kwallet) before they reach disk. It fails closed, as VS Code's secret storage does:
 * - without a real keychain it keeps values in memory only (and says so through `status()`);
 * - an entry that fails to decrypt is deleted, never returned;
 * - only supabase-js auth keys are reachable, and values are never logged.
 */

/** The part of Electron's safeStorage the vault uses (passed in, so the vault is testable without Electron). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means no keychain, just a hard-coded password. */
  getSelectedStorageBackend?: () => string;
}

/** The part of electron-store the vault uses: base64 ciphertexts by key. */
export interface CipherStore {
  get(key: string): unknown;
  set(key: string, value: string): void;
  delete(key: string): void;
}

export interface VaultStatus {
  /** True when values survive a restart, encrypted by the OS keychain. */
  persistent: boolean;
  reason?: string;
}

export interface Vault {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  status(): VaultStatus;
}

/** supabase-js's auth storage keys (docs/reference/auth.md §10); nothing else may be read or written. */
const AUTH_KEY =
  /^sb-[a-z0-9-]{1,63}-auth-token(-user|-code-verifier|-flows-code-verifier|-flow-[0-9a-f]{32}-code-verifier)?$/;
export const MAX_VAULT_VALUE = 64 * 1024;

export class VaultKeyError extends Error {}

export function isVaultKey(key: unknown): key is string {
  return typeof key === 'string' && AUTH_KEY.test(key);
}

function assertKey(key: unknown): asserts key is string {
  if (!isVaultKey(key)) {
    throw new VaultKeyError('The vault holds only the auth session and PKCE verifier.');
  }
}

export function createVault(safe: SafeStorageLike, store: CipherStore): Vault {
  const backend = safe.getSelectedStorageBackend?.();
  const encrypted = safe.isEncryptionAvailable() && backend !== 'basic_text';
  const memory = new Map<string, string>();
  const status: VaultStatus = encrypted
    ? { persistent: true }
    : {
        persistent: false,
        reason:
          backend === 'basic_text'
            ? 'No system keychain was found (libsecret or kwallet); you will be signed out when Vigil quits.'
            : 'Encryption is unavailable on this system; you will be signed out when Vigil quits.',
      };

  return {
    getItem(key) {
      assertKey(key);
      if (!encrypted) {
        return memory.get(key) ?? null;
      }
      const stored = store.get(key);
      if (typeof stored !== 'string') {
        return null;
      }
      try {
        return safe.decryptString(Buffer.from(stored, 'base64'));
      } catch {
        // A value we cannot decrypt (another keychain, tampering) is dropped rather than trusted.
        store.delete(key);
        return null;
      }
    },
    setItem(key, value) {
      assertKey(key);
      if (typeof value !== 'string' || value.length > MAX_VAULT_VALUE) {
        throw new VaultKeyError('A vault value is a string of at most 64 KiB.');
      }
      if (!encrypted) {
        memory.set(key, value);
        return;
      }
      store.set(key, safe.encryptString(value).toString('base64'));
    },
    removeItem(key) {
      assertKey(key);
      memory.delete(key);
      store.delete(key);
    },
    status: () => status,
  };
}
