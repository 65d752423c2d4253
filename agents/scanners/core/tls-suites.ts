// What each cipher suite of the IANA registry means, read from its name: `TLS_<key exchange>_WITH_<cipher>_<MAC>`
// for TLS ≤ 1.2 (RFC 5246 appendix A.5 and the RFCs that added suites since), `TLS_<AEAD>_<hash>` for TLS 1.3.
import { TLS_SUITES } from './tls-suites.data.ts';

export interface Suite {
  code: number;
  /** The IANA name, e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256. */
  name: string;
  tls13: boolean;
  /** Key exchange and authentication as the name gives them (RSA, DHE_RSA, ECDH_anon, PSK…); `any` on TLS 1.3. */
  kx: string;
  /** The bulk cipher and MAC part (AES_128_GCM_SHA256, 3DES_EDE_CBC_SHA…). */
  cipher: string;
  /** No encryption at all. */
  nullCipher: boolean;
  /** No authentication of the server (anonymous Diffie-Hellman): anyone in the middle can answer. */
  anonymous: boolean;
  /** Export grade: 40- and 56-bit keys, 512-bit RSA or DH (FREAK, Logjam). */
  export: boolean;
  rc4: boolean;
  /** 64-bit block ciphers: 3DES, DES, IDEA, RC2 (SWEET32). */
  block64: boolean;
  cbc: boolean;
  aead: boolean;
  /** An ephemeral (EC)DH key exchange or TLS 1.3: a stolen server key does not decrypt recorded traffic. */
  ephemeral: boolean;
  /** Finite-field ephemeral DH (DHE, DH_anon): the server sends its group in ServerKeyExchange. */
  finiteFieldDhe: boolean;
  /** Authenticated by a pre-shared key, SRP or Kerberos rather than a certificate. */
  preShared: boolean;
}

export function describeSuite(code: number, name: string): Suite {
  const tls13 = !name.includes('_WITH_');
  const [kx, cipher] = tls13 ? ['any', name.slice(4)] : (name.slice(4).split('_WITH_') as [string, string]);
  const aead = /GCM|CCM|CHACHA20_POLY1305/.test(cipher);
  const finiteFieldDhe = /^(DHE_|DH_anon|PSK_DHE)/.test(kx);
  return {
    code,
    name,
    tls13,
    kx,
    cipher,
    nullCipher: cipher.startsWith('NULL'),
    anonymous: kx.includes('anon'),
    export: kx.includes('EXPORT') || /_(40|56)_|DES40|DES_CBC_40/.test(cipher),
    rc4: cipher.startsWith('RC4'),
    block64: /^(3DES|DES|IDEA|RC2)/.test(cipher),
    cbc: !aead && cipher.includes('CBC'),
    aead: tls13 || aead,
    ephemeral: tls13 || finiteFieldDhe || /^(ECDHE_|ECDH_anon)/.test(kx),
    finiteFieldDhe,
    preShared: /PSK|SRP|KRB5/.test(kx),
  };
}

export const SUITES: ReadonlyMap<number, Suite> = new Map(
  TLS_SUITES.map(([code, name]) => [code, describeSuite(code, name)]),
);

/** The suites offered in a ClientHello of TLS 1.3 (`true`) or of an older version (`false`). */
export function suiteCodes(tls13: boolean): number[] {
  return [...SUITES.values()].filter((s) => s.tls13 === tls13).map((s) => s.code);
}

export function suiteName(code: number): string {
  return SUITES.get(code)?.name ?? `0x${code.toString(16).padStart(4, '0')}`;
}
