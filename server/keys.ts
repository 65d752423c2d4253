import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  decodeJwt,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';

export type ApiRole = 'anon' | 'authenticated' | 'service_role';

export interface JwtClaims extends JWTPayload {
  role: string;
  [claim: string]: unknown;
}

export interface KeyRing {
  readonly kid: string;
  readonly anonKey: string;
  readonly serviceRoleKey: string;
  /** Public keys as served at /auth/v1/.well-known/jwks.json. */
  jwks(): { keys: JWK[] };
  /** The `iss` of every token the stack signs and accepts: `<public URL>/auth/v1`, as GoTrue's. */
  readonly issuer: string;
  /** Signs claims as the stack's tokens are: `iss` is the stack's unless the claims name another (tests). */
  sign(claims: JwtClaims, expiresInSeconds: number): Promise<string>;
  /**
   * Verifies a token as GoTrue and PostgREST check it: ES256 signature by this key, expiry, the stack's
   * issuer, and the audience `authenticated` for user tokens (any `aud` a token carries must be that one).
   * Throws jose's errors (JWTExpired, JWTClaimValidationFailed, JWSSignatureVerificationFailed, …).
   */
  verify(token: string): Promise<JwtClaims>;
}

interface StoredKey {
  kid: string;
  privateJwk: JWK;
  anonKey?: string;
  serviceRoleKey?: string;
}

const TEN_YEARS = 10 * 365 * 24 * 3600;

/** GoTrue's audience for user access tokens (its GOTRUE_JWT_AUD default). */
export const USER_AUDIENCE = 'authenticated';

const keyFile = (dataDir: string) => (dataDir === 'memory' ? null : path.join(dataDir, 'signing-key.json'));

async function loadOrCreate(dataDir: string): Promise<StoredKey> {
  const file = keyFile(dataDir);
  if (file && existsSync(file)) {
    return JSON.parse(await readFile(file, 'utf8')) as StoredKey;
  }
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const privateJwk = await exportJWK(privateKey);
  return { kid: await calculateJwkThumbprint(privateJwk), privateJwk };
}

async function save(dataDir: string, stored: StoredKey): Promise<void> {
  const file = keyFile(dataDir);
  if (file) {
    await mkdir(dataDir, { recursive: true });
    // The private signing key: readable by the owner only.
    await writeFile(file, JSON.stringify(stored), { mode: 0o600 });
  }
}

/** The stack's ES256 signing key (created on first start and kept in the data dir) and its API keys. */
export async function openKeyRing(dataDir: string, issuer: string): Promise<KeyRing> {
  const stored = await loadOrCreate(dataDir);
  const { kid, privateJwk } = stored;
  const { d: _d, ...publicJwk } = privateJwk;
  const privateKey = (await importJWK(privateJwk, 'ES256')) as CryptoKey;
  const publicKey = (await importJWK(publicJwk, 'ES256')) as CryptoKey;
  const sign = (claims: JwtClaims, expiresIn: number) =>
    new SignJWT({ iss: issuer, ...claims })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)
      .sign(privateKey);
  // The API keys are issued once and kept beside the signing key, so clients configured with them
  // (stack.json, /config.json, a desktop app) keep working across restarts. Keys of another issuer (the
  // stack's public URL changed since) would no longer verify: they are issued again.
  const keyIssuer = (token: string | undefined) => (token ? decodeJwt(token).iss : undefined);
  if (!stored.anonKey || !stored.serviceRoleKey || keyIssuer(stored.anonKey) !== issuer) {
    stored.anonKey = await sign({ iss: issuer, role: 'anon' }, TEN_YEARS);
    stored.serviceRoleKey = await sign({ iss: issuer, role: 'service_role' }, TEN_YEARS);
    await save(dataDir, stored);
  }
  const { anonKey, serviceRoleKey } = stored;
  const jwk: JWK = { ...publicJwk, kid, alg: 'ES256', use: 'sig', key_ops: ['verify'], ext: true };
  return {
    kid,
    anonKey,
    serviceRoleKey,
    issuer,
    jwks: () => ({ keys: [jwk] }),
    sign,
    async verify(token) {
      const { payload } = await jwtVerify(token, publicKey, { algorithms: ['ES256'], issuer });
      if (typeof payload.role !== 'string') {
        throw new errors.JWTClaimValidationFailed('JWT has no role claim', payload, 'role', 'missing');
      }
      const audiences = payload.aud === undefined ? [] : [payload.aud].flat();
      const userToken = payload.role === USER_AUDIENCE;
      if (audiences.some((a) => a !== USER_AUDIENCE) || (userToken && audiences.length === 0)) {
        throw new errors.JWTClaimValidationFailed(
          'unexpected "aud" claim value',
          payload,
          'aud',
          'check_failed',
        );
      }
      return payload as JwtClaims;
    },
  };
}
