// What an SSH server offers before any authentication: after the version exchange it sends
// SSH_MSG_KEXINIT (RFC 4253 §7.1) in clear text, listing its key-exchange, host-key, cipher and MAC
// algorithms. We read that list and name each broken or deprecated algorithm it still accepts, with
// the reason (RFC 9142 for key exchange, RFC 8758 for RC4, RFC 8332 and OpenSSH 8.8 for SHA-1
// signatures, RFC 4253 §6.3 / CVE-2008-5161 for CBC), and whether it lacks the strict key exchange
// that closes the Terrapin attack (CVE-2023-48795).
import { firstPacket, maxPacket, readPayloads, SshReader } from './ssh-packet.ts';

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
/** What each of the ten name-lists holds (RFC 4253 §7.1 order; the last six in pairs, one per direction). */
const listNames = [
  'key exchange',
  'host key',
  'ciphers',
  'ciphers',
  'MACs',
  'MACs',
  'compression',
  'compression',
  'languages',
  'languages',
];

/** The lists read so far, in order; stops at the first list that does not fit in `payload`. */
function readLists(payload: Buffer): string[][] | null {
  const reader = new SshReader(payload);
  try {
    if (reader.byte() !== SSH_MSG_KEXINIT) {
      return null;
    }
    reader.skip(16); // cookie
  } catch {
    return null;
  }
  const lists: string[][] = [];
  for (let i = 0; i < 10; i++) {
    try {
      const list = reader.bytes().toString('latin1');
      lists.push(list === '' ? [] : list.split(','));
    } catch {
      break;
    }
  }
  return lists;
}

function algorithmsOf(lists: string[][]): SshAlgorithms {
  // Order per RFC 4253 §7.1: kex, host key, cipher c→s, s→c, MAC c→s, s→c, compression ×2, languages ×2.
  return {
    kex: lists[0] ?? [],
    hostKey: lists[1] ?? [],
    ciphers: [...new Set([...(lists[2] ?? []), ...(lists[3] ?? [])])],
    macs: [...new Set([...(lists[4] ?? []), ...(lists[5] ?? [])])],
    lists,
  };
}

export function parseKexInitPayload(payload: Buffer): SshAlgorithms | null {
  const lists = readLists(payload);
  // Guard: a truncated list is "no KEXINIT", not a scanner crash.
  return lists?.length === 10 ? algorithmsOf(lists) : null;
}

/**
 * Parses the first binary packet after the identification line(s) in `transcript`, or null when it is
 * not a whole KEXINIT (a fake banner, a server that hung up, a packet still arriving).
 */
export function parseKexInit(transcript: Buffer): SshAlgorithms | null {
  const first = readPayloads(transcript)?.[0];
  return first ? parseKexInitPayload(first) : null;
}

/** A KEXINIT read only in part, and what that left out. */
export interface KexInitCut {
  /** Bytes the server announced for the packet. */
  announced: number;
  /** Bytes of it that were read. */
  read: number;
  /** The lists not read in full, by what they hold. */
  unread: string[];
}

/**
 * The KEXINIT of a finished conversation, whole or cut: one larger than any OpenSSH client accepts (read
 * up to that limit) or one the server stopped sending still shows the lists that arrived whole, so
 * padding cannot push weak algorithms out of sight; `cut` says what was not read.
 */
export function readKexInit(transcript: Buffer): { algorithms: SshAlgorithms; cut?: KexInitCut } | null {
  const packet = firstPacket(transcript);
  if (!packet) {
    return null;
  }
  const lists = readLists(packet.payload);
  if (!lists) {
    return null;
  }
  if (packet.complete && lists.length === 10) {
    return { algorithms: algorithmsOf(lists) };
  }
  // A whole packet whose lists do not fit is malformed, not cut.
  if (packet.complete) {
    return null;
  }
  return {
    algorithms: algorithmsOf(lists),
    cut: {
      announced: packet.announced,
      read: packet.payload.length,
      unread: [...new Set(listNames.slice(lists.length))],
    },
  };
}

/** "the KEXINIT announced 300000 bytes (over the 262144 OpenSSH accepts); 262144 were read; ..." */
export function describeCut(cut: KexInitCut): string {
  const why =
    cut.announced > maxPacket
      ? `announced ${cut.announced} bytes, more than the ${maxPacket} any OpenSSH client accepts`
      : `announced ${cut.announced} bytes and stopped sending`;
  return `the server's KEXINIT ${why}; ${cut.read} bytes were read, so these lists were not read in full: ${cut.unread.join(', ')}`;
}

/** A note for findings drawn from a cut KEXINIT. */
export function fromCut(cut: KexInitCut): string {
  return ` (read from a KEXINIT cut at ${cut.read} of its ${cut.announced} bytes)`;
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

/** RFC 4251 §6: an algorithm name is at most 64 characters; a longer one is no algorithm any client uses. */
const maxNameLength = 64;

const judge = (names: string[], verdicts: Verdicts): Weak[] =>
  [...new Set(names)].flatMap((name) => {
    if (name.length > maxNameLength) {
      return [];
    }
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

/** At most this many weak algorithms are named in one evidence; the rest are counted. */
const namedWeak = 16;

/** "name (why), name (why)": the weak algorithms named in the evidence. */
export const describeWeak = (weak: Weak[]) =>
  weak
    .slice(0, namedWeak)
    .map((w) => `${w.name} (${w.why})`)
    .join(', ') + (weak.length > namedWeak ? ` (+${weak.length - namedWeak} more)` : '');

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
