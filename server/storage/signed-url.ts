import { errors } from 'jose';
import type { KeyRing } from '../keys.ts';
import { StorageError } from './errors.ts';

/**
 * The role claim of signed-URL tokens. It is no API role, so such a token can never be used as an API
 * credential (request-role refuses unknown roles), and API tokens carry no `url` claim to pass here.
 */
const SIGNED_URL_ROLE = 'storage_signed_url';
const MAX_EXPIRY_SECONDS = 365 * 24 * 3600;

/** Signs a download token for `<bucket>/<name>` (Supabase Storage's `{url, exp}` token). */
export function signObjectUrl(
  keys: KeyRing,
  bucket: string,
  name: string,
  expiresIn: number,
): Promise<string> {
  if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_EXPIRY_SECONDS) {
    throw new StorageError(
      400,
      'InvalidRequest',
      `expiresIn must be an integer between 1 and ${MAX_EXPIRY_SECONDS}`,
    );
  }
  return keys.sign({ role: SIGNED_URL_ROLE, url: `${bucket}/${name}` }, expiresIn);
}

/** Checks a download token against the object it is presented for. */
export async function verifyObjectToken(
  keys: KeyRing,
  token: string | undefined,
  bucket: string,
  name: string,
): Promise<void> {
  if (!token) {
    throw new StorageError(400, 'InvalidJWT', 'Missing token');
  }
  let claims: Awaited<ReturnType<KeyRing['verify']>>;
  try {
    claims = await keys.verify(token);
  } catch (e) {
    throw new StorageError(
      400,
      'InvalidJWT',
      e instanceof errors.JWTExpired ? 'jwt expired' : 'invalid signature',
    );
  }
  // A token signed for another object (or any other kind of JWT) opens nothing here.
  if (claims.role !== SIGNED_URL_ROLE || claims.url !== `${bucket}/${name}`) {
    throw new StorageError(400, 'InvalidSignature', 'The url do not match the signature');
  }
}
