import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software platform authenticator for tests: real ES256 keys (WebCrypto), real CBOR attestation
 * objects ("none" format) and real DER-encoded assertion signatures, with a signature counter. It plays
 * the part of navigator.credentials: it takes the options auth-js has already decoded (ArrayBuffers)
 * and returns credentials whose toJSON() is the W3C Level 3 JSON auth-js sends to the server.
 */
export interface AuthenticatorOptions {
  /** The page's origin, signed into clientDataJSON. */
  origin: string;
  /** Whether the user was verified (biometric / PIN); UP is always set. */
  userVerified?: boolean;
}

interface Credential {
  id: Buf;
  rpId: string;
  keys: webcrypto.CryptoKeyPair;
  counter: number;
}

type Bytes = ArrayBuffer | ArrayBufferView;
type Buf = Uint8Array<ArrayBuffer>;
const toBytes = (b: Bytes): Buf =>
  b instanceof ArrayBuffer
    ? new Uint8Array(b)
    : Uint8Array.from(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
const sha256 = (data: Uint8Array): Buf => Uint8Array.from(createHash('sha256').update(data).digest());
const u32 = (n: number) => new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const concat = (...parts: Uint8Array[]): Buf => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** WebAuthn wants ES256 signatures as ASN.1 DER; WebCrypto gives raw r||s. */
function derSignature(raw: Uint8Array): Buf {
  const int = (b: Uint8Array) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0) {
      i++;
    }
    const v = b.slice(i);
    const body = (v[0] ?? 0) & 0x80 ? concat(new Uint8Array([0]), v) : v;
    return concat(new Uint8Array([0x02, body.length]), body);
  };
  const seq = concat(int(raw.slice(0, 32)), int(raw.slice(32)));
  return concat(new Uint8Array([0x30, seq.length]), seq);
}

/** Stands in for the browser's PublicKeyCredential class (auth-js checks `instanceof`). */
export class FakePublicKeyCredential {
  readonly type = 'public-key';
  constructor(
    readonly id: string,
    private readonly json: Record<string, unknown>,
  ) {}
  getClientExtensionResults() {
    return {};
  }
  toJSON() {
    return this.json;
  }
}

export class SoftwareAuthenticator {
  private readonly credentials: Credential[] = [];
  origin: string;
  userVerified: boolean;

  constructor(options: AuthenticatorOptions) {
    this.origin = options.origin;
    this.userVerified = options.userVerified ?? true;
  }

  private clientData(type: string, challenge: Bytes): Buf {
    const json = {
      type,
      challenge: isoBase64URL.fromBuffer(toBytes(challenge)),
      origin: this.origin,
      crossOrigin: false,
    };
    return new TextEncoder().encode(JSON.stringify(json));
  }

  private flags(extra = 0): number {
    return 0x01 | (this.userVerified ? 0x04 : 0) | extra;
  }

  /** navigator.credentials.create({publicKey}) */
  async create(publicKey: {
    challenge: Bytes;
    rp: { id?: string };
    pubKeyCredParams: { alg: number }[];
  }): Promise<FakePublicKeyCredential> {
    if (!publicKey.pubKeyCredParams.some((p) => p.alg === -7)) {
      throw new Error('NotSupportedError: this authenticator only does ES256');
    }
    const rpId = publicKey.rp.id ?? new URL(this.origin).hostname;
    const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ]);
    const jwk = await webcrypto.subtle.exportKey('jwk', keys.publicKey);
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x ?? '')],
        [-3, isoBase64URL.toBuffer(jwk.y ?? '')],
      ]),
    );
    const id: Buf = Uint8Array.from(randomBytes(16));
    const credential: Credential = { id, rpId, keys, counter: 0 };
    this.credentials.push(credential);
    const attested = concat(new Uint8Array(16), new Uint8Array([0, id.length]), id, cose);
    const authData = concat(
      sha256(new TextEncoder().encode(rpId)),
      new Uint8Array([this.flags(0x40)]),
      u32(0),
      attested,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const b64 = isoBase64URL.fromBuffer(id);
    return new FakePublicKeyCredential(b64, {
      id: b64,
      rawId: b64,
      type: 'public-key',
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(this.clientData('webauthn.create', publicKey.challenge)),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    });
  }

  /** navigator.credentials.get({publicKey}); `credentialIndex` picks a credential when several match. */
  async get(publicKey: {
    challenge: Bytes;
    rpId?: string;
    allowCredentials?: { id: Bytes }[];
  }): Promise<FakePublicKeyCredential> {
    const allowed = (publicKey.allowCredentials ?? []).map((c) => isoBase64URL.fromBuffer(toBytes(c.id)));
    const credential = this.credentials.find(
      (c) => allowed.length === 0 || allowed.includes(isoBase64URL.fromBuffer(c.id)),
    );
    if (!credential) {
      throw new Error('NotAllowedError: no matching credential on this authenticator');
    }
    return this.assert(credential, publicKey.challenge, publicKey.rpId ?? credential.rpId);
  }

  /** Signs an assertion with an explicit counter (for counter-regression tests). */
  async assert(
    credential: Credential,
    challenge: Bytes,
    rpId: string,
    counter?: number,
  ): Promise<FakePublicKeyCredential> {
    credential.counter = counter ?? credential.counter + 1;
    const authData = concat(
      sha256(new TextEncoder().encode(rpId)),
      new Uint8Array([this.flags()]),
      u32(credential.counter),
    );
    const clientData = this.clientData('webauthn.get', challenge);
    const raw = new Uint8Array(
      await webcrypto.subtle.sign(
        { name: 'ECDSA', hash: 'SHA-256' },
        credential.keys.privateKey,
        concat(authData, sha256(clientData)),
      ),
    );
    const b64 = isoBase64URL.fromBuffer(credential.id);
    return new FakePublicKeyCredential(b64, {
      id: b64,
      rawId: b64,
      type: 'public-key',
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientData),
        authenticatorData: isoBase64URL.fromBuffer(authData),
        signature: isoBase64URL.fromBuffer(derSignature(raw)),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    });
  }

  /** The only credential (tests register one per authenticator). */
  get credential(): Credential {
    const c = this.credentials[0];
    if (!c) {
      throw new Error('no credential registered');
    }
    return c;
  }
}
