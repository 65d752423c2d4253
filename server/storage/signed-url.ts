import { errors } from 'jose';
import type { JwtClaims, KeyRing } from '../keys.ts';
import { StorageError } from './errors.ts';

/**
 * The role claim of signed-URL tokens. It is no API role, so such a token can never be used as an API
 * credential (request-role refuses unknown roles), and API tokens carry no `url` claim to pass here.
 */
const SIGNED_URL_ROLE = 'storage_signed_url';
const MAX_EXPIRY_SECONDS = 365 * 24 * 3600;
/** Supabase Storage's default lifetime of a signed upload URL (uploadSignedUrlExpirationTime). */
export const UPLOAD_URL_EXPIRY_SECONDS = 2 * 3600;

/** What a token was signed for, as Supabase Storage's `scope` claim: a download token uploads nothing. */
export type SignedUrlScope = 'download' | 'upload';

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
  return keys.sign({ role: SIGNED_URL_ROLE, url: `${bucket}/${name}`, scope: 'download' }, expiresIn);
}

/** Signs an upload token for `<bucket>/<name>`, carrying the owner and upsert choice of its creator. */
export function signUploadUrl(
  keys: KeyRing,
  bucket: string,
  name: string,
  owner: string | null,
  upsert: boolean,
): Promise<string> {
  return keys.sign(
    { role: SIGNED_URL_ROLE, url: `${bucket}/${name}`, scope: 'upload', owner, upsert },
    UPLOAD_URL_EXPIRY_SECONDS,
  );
}

/** Checks a signed-URL token against the object and the action it is presented for; returns its claims. */
export async function verifyObjectToken(
  keys: KeyRing,
  token: string | undefined,
  bucket: string,
  name: string,
  scope: SignedUrlScope = 'download',
): Promise<JwtClaims> {
  if (!token) {
    throw new StorageError(400, 'InvalidJWT', 'Missing token');
  }
  let claims: JwtClaims;
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
  // A token is good for the one action it was signed for (download tokens of old carry no scope).
  const tokenScope = claims.scope ?? 'download';
  if (tokenScope !== scope) {
    throw new StorageError(400, 'InvalidSignature', `Token is not scoped for ${scope}`);
  }
  return claims;
}
