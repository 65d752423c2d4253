// The local error store: when tracking fails, up to 50 errors are kept in local storage under vigil_errors.
import * as z from 'zod/mini';

import { ERROR_STORE_LIMIT, STORAGE_KEYS } from '../../../../shared/constants.ts';

export const localErrorRecordSchema = z.object({
  id: z.string(),
  timestamp: z.string(),
  message: z.string(),
  component: z.optional(z.string()),
  severity: z.optional(z.enum(['critical', 'high', 'medium', 'low'])),
});
export type LocalErrorRecord = z.infer<typeof localErrorRecordSchema>;

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function readStoredErrors(storage: KeyValueStorage): LocalErrorRecord[] {
  try {
    const parsed = z
      .array(localErrorRecordSchema)
      .safeParse(JSON.parse(storage.getItem(STORAGE_KEYS.errors) ?? '[]'));
    // A corrupted or tampered entry must not break error reporting itself: start again from empty.
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Appends a record, keeping only the newest 50. Storage failures (quota, private mode) are swallowed. */
export function storeError(storage: KeyValueStorage, record: LocalErrorRecord): LocalErrorRecord[] {
  const next = [...readStoredErrors(storage), record].slice(-ERROR_STORE_LIMIT);
  try {
    storage.setItem(STORAGE_KEYS.errors, JSON.stringify(next));
  } catch {
    // Nothing else can be done when local storage refuses the write; the error was already logged.
  }
  return next;
}

export function clearStoredErrors(storage: KeyValueStorage): void {
  storage.removeItem(STORAGE_KEYS.errors);
}
