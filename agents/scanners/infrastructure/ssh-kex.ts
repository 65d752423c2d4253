// What an SSH server offers before any authentication: after the version exchange it sends
// SSH_MSG_KEXINIT (RFC 4253 §7.1) in clear text, listing its key-exchange, host-key, cipher and MAC
// algorithms. We read that list and name each broken or deprecated algorithm it still accepts, with
// the reason (RFC 9142 for key exchange, RFC 8758 for RC4, RFC 8332 and OpenSSH 8.8 for SHA-1
// signatures, RFC 4253 §6.3 / CVE-2008-5161 for CBC), and whether it lacks the strict key exchange
// that closes the Terrapin attack (CVE-2023-48795).
import { readPayloads, SshReader } from './ssh-packet.ts';

/** The algorithm lists of a server's KEXINIT. */
export interface SshAlgorithms {
  kex: string[];
  hostKey: string[];
  ciphers: string[];
  macs: string[];
  /** The ten name-lists in wire order, to echo the server's own offer back when we answer it. */
  lists: string[][];
}

const SSH_MSG_KEXINIT = 20;

export function parseKexInitPayload(payload: Buffer): SshAlgorithms | null {
  try {
    const reader = new SshReader(payload);
    if (reader.byte() !== SSH_MSG_KEXINIT) {
      return null;
    }
    reader.skip(16); // cookie
    const lists: string[][] = [];
    for (let i = 0; i < 10; i++) {
      const list = reader.bytes().toString('latin1');
      lists.push(list === '' ? [] : list.split(','));
    }
    // Order per RFC 4253 §7.1: kex, host key, cipher c→s, s→c, MAC c→s, s→c, compression ×2, languages ×2.
    return {
      kex: lists[0]!,
      hostKey: lists[1]!,
      ciphers: [...new Set([...lists[2]!, ...lists[3]!])],
      macs: [...new Set([...lists[4]!, ...lists[5]!])],
      lists,
    };
  } catch {
    // Guard: a truncated list is "no KEXINIT", not a scanner crash.
    return null;
  }
}

/**
 * Parses the first binary packet after the identification line(s) in `transcript`, or null when it is
 * not a KEXINIT (a fake banner, a server that hung up, a truncated read).
 */
export function parseKexInit(transcript: Buffer): SshAlgorithms | null {
  const first = readPayloads(transcript)?.[0];
  return first ? parseKexInitPayload(first) : null;
}

/** One weak algorithm and why. */
export interface Weak {
  name: string;
  why: string;
}

type Verdicts = [RegExp, string][];

const sha1 = 'SHA-1';
const weakKex: Verdicts = [
  [/^(diffie-hellman-group1-sha1|gss-group1-sha1-.*)$/, '1024-bit group, SHA-1'],
  [/^diffie-hellman-group1-sha256$/, '1024-bit group'],
  [/^rsa1024-sha1$/, '1024-bit RSA, SHA-1'],
  [/^(diffie-hellman-group14-sha1|gss-group14-sha1-.*)$/, sha1],
  [/^(diffie-hellman-group-exchange-sha1|gss-gex-sha1-.*)$/, sha1],
];
const weakHostKey: Verdicts = [
  [/^(ssh-dss|ssh-dss-cert-v0[01]@openssh\.com|x509v3-(sign|ssh)-dss)$/, 'DSA: 1024-bit key, SHA-1'],
  [/^(ssh-rsa|ssh-rsa-cert-v0[01]@openssh\.com|x509v3-(sign|ssh)-rsa)$/, 'RSA signatures with SHA-1'],
];
const weakCipher: Verdicts = [
  [/^none$/, 'no encryption'],
  [/^(des|des-cbc|des-cbc@ssh\.com)$/, 'DES'],
  [/^3des(-cbc)?$/, '3DES, 64-bit block, CBC'],
  [/^3des-ctr$/, '3DES, 64-bit block'],
  [/^arcfour.*$/, 'RC4'],
  [/^(blowfish|cast128)-cbc$/, '64-bit block, CBC'],
  [/^(.*-cbc(@.*)?|rijndael-cbc@lysator\.liu\.se)$/, 'CBC mode'],
];
const weakMac: Verdicts = [
  [/^none$/, 'no integrity protection'],
  [/^hmac-md5-96(-etm@openssh\.com)?$/, 'MD5, truncated to 96 bits'],
  [/^hmac-md5(-etm@openssh\.com)?$/, 'MD5'],
  [/^hmac-sha1-96(-etm@openssh\.com)?$/, 'SHA-1, truncated to 96 bits'],
  [/^hmac-sha1(-etm@openssh\.com)?$/, sha1],
  [/^.*-96(-etm)?(@openssh\.com)?$/, 'truncated to 96 bits'],
  [/^hmac-ripemd160.*$/, 'RIPEMD-160, removed from OpenSSH 7.6'],
];

const judge = (names: string[], verdicts: Verdicts): Weak[] =>
  names.flatMap((name) => {
    const verdict = verdicts.find(([pattern]) => pattern.test(name));
    return verdict ? [{ name, why: verdict[1] }] : [];
  });

export interface SshWeaknesses {
  kex: Weak[];
  hostKeys: Weak[];
  ciphers: Weak[];
  macs: Weak[];
}

export function sshWeaknesses(algorithms: SshAlgorithms): SshWeaknesses {
  return {
    kex: judge(algorithms.kex, weakKex),
    hostKeys: judge(algorithms.hostKey, weakHostKey),
    ciphers: judge(algorithms.ciphers, weakCipher),
    macs: judge(algorithms.macs, weakMac),
  };
}

/** "name (why), name (why)": every weak algorithm named in the evidence. */
export const describeWeak = (weak: Weak[]) => weak.map((w) => `${w.name} (${w.why})`).join(', ');

/**
 * Why the server is open to the Terrapin prefix truncation (CVE-2023-48795), or null: it offers
 * ChaCha20-Poly1305, or CBC ciphers with encrypt-then-MAC, without the strict key exchange
 * ("kex-strict-s-v00@openssh.com") that OpenSSH 9.6 and the patched releases of others added.
 */
export function terrapinExposure(algorithms: SshAlgorithms): string | null {
  if (algorithms.kex.includes('kex-strict-s-v00@openssh.com')) {
    return null;
  }
  const chacha = algorithms.ciphers.filter((name) => name === 'chacha20-poly1305@openssh.com');
  const etm = algorithms.macs.filter((name) => name.endsWith('-etm@openssh.com'));
  const cbc = algorithms.ciphers.filter((name) => /-cbc(@|$)/.test(name));
  const modes = [...chacha, ...(etm.length > 0 && cbc.length > 0 ? [...cbc, ...etm] : [])];
  return modes.length > 0
    ? `offers ${modes.join(', ')} without strict key exchange (no kex-strict-s-v00@openssh.com in its KEXINIT)`
    : null;
}

/** Our identification string (RFC 4253 §4.2), sent so the server goes on to its KEXINIT. */
export const scannerIdent = 'SSH-2.0-VigilScanner_0.1\r\n';
