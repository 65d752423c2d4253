// Sealing a target's login at rest: AES-256-GCM (WebCrypto: the same code in the edge function on Deno
// and in the agent worker on Node) under a key that is never in the database. The ciphertext is bound to
// its owner and target (additional data), so a sealed login copied to another row or tenant does not
// open; it names its key by a fingerprint, so a wrong key is told apart from a tampered box.
import { TargetLogin } from './target-login.ts';

export class SealError extends Error {
  constructor(
    readonly reason: 'bad-key' | 'wrong-key' | 'tampered' | 'malformed',
    message: string,
  ) {
    super(message);
    this.name = 'SealError';
  }
}

export interface SealBinding {
  userId: string;
  targetId: string;
}

const VERSION = 'v1';
const encoder = new TextEncoder();

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary);
}

/** The 32 key bytes from their base64 (44 characters) or hex (64) form. */
export function keyBytes(key: string): Uint8Array<ArrayBuffer> {
  const text = key.trim();
  let bytes: Uint8Array<ArrayBuffer> | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(text)) {
    bytes = new Uint8Array(text.match(/../g)!.map((h) => parseInt(h, 16)));
  } else if (/^[A-Za-z0-9+/]{43}=$/.test(text)) {
    bytes = fromBase64(text);
  }
  if (!bytes || bytes.length !== 32) {
    throw new SealError(
      'bad-key',
      'The credentials key must be 32 bytes, as base64 (44 characters) or hex (64).',
    );
  }
  return bytes;
}

/** A short public name of the key (the first 8 bytes of its SHA-256), stored beside each sealed login. */
export async function keyId(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', keyBytes(key)));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A fresh random key, base64 (what the embedded stack writes to its data dir on first start). */
export function newCredentialsKey(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

const importKey = (key: string) =>
  crypto.subtle.importKey('raw', keyBytes(key), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);

const additionalData = (binding: SealBinding) =>
  encoder.encode(`vigil-target-login:${VERSION}:${binding.userId}:${binding.targetId}`);

/** `v1.<key id>.<iv>.<ciphertext and tag>`, base64 parts. */
export async function sealLogin(key: string, login: TargetLogin, binding: SealBinding): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = encoder.encode(JSON.stringify(TargetLogin.parse(login)));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: additionalData(binding) },
      await importKey(key),
      plain,
    ),
  );
  return [VERSION, await keyId(key), toBase64(iv), toBase64(sealed)].join('.');
}

export async function openLogin(key: string, box: string, binding: SealBinding): Promise<TargetLogin> {
  const parts = box.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) {
    throw new SealError('malformed', 'The stored login is not a sealed login this version can read.');
  }
  const [, kid, iv, data] = parts as [string, string, string, string];
  if (kid !== (await keyId(key))) {
    throw new SealError(
      'wrong-key',
      'The stored login was sealed with another credentials key; save the login again.',
    );
  }
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64(iv), additionalData: additionalData(binding) },
      await importKey(key),
      fromBase64(data),
    );
  } catch {
    // Guard: GCM's tag fails on any change to the ciphertext, the IV, the key or the binding.
    throw new SealError('tampered', 'The stored login does not open: it was altered or belongs elsewhere.');
  }
  const parsed = TargetLogin.safeParse(JSON.parse(new TextDecoder().decode(plain)));
  if (!parsed.success) {
    throw new SealError('malformed', 'The stored login opened but is not a valid login.');
  }
  return parsed.data;
}
