// What an SSH server offers before any authentication: after the version exchange it sends
// SSH_MSG_KEXINIT (RFC 4253 §7.1) in clear text, listing its key-exchange, host-key, cipher and MAC
// algorithms. We read that list and name the broken or deprecated ones it still accepts (RFC 9142,
// RFC 8758, RFC 6668 §2); nothing is negotiated and no key exchange takes place.

/** The algorithm lists of a server's KEXINIT. */
export interface SshAlgorithms {
  kex: string[];
  hostKey: string[];
  ciphers: string[];
  macs: string[];
}

const SSH_MSG_KEXINIT = 20;

/**
 * Parses the first binary packet after the identification line(s) in `transcript`, or null when it is
 * not a KEXINIT (a fake banner, a server that hung up, a truncated read).
 */
export function parseKexInit(transcript: Buffer): SshAlgorithms | null {
  const text = transcript.toString('latin1');
  const ident = /^SSH-[^\r\n]*\r?\n/m.exec(text);
  if (!ident) {
    return null;
  }
  let at = ident.index + ident[0].length;
  // Guard: a packet length must fit what we read and stay within the RFC's 35,000-byte limit.
  if (transcript.length < at + 5) {
    return null;
  }
  const packetLength = transcript.readUInt32BE(at);
  if (packetLength < 1 + 17 || packetLength > 35_000 || transcript.length < at + 4 + packetLength) {
    return null;
  }
  const end = at + 4 + packetLength - transcript[at + 4]!;
  at += 5;
  if (transcript[at] !== SSH_MSG_KEXINIT) {
    return null;
  }
  at += 1 + 16; // message number, cookie
  const lists: string[][] = [];
  for (let i = 0; i < 10; i++) {
    if (at + 4 > end) {
      return null;
    }
    const length = transcript.readUInt32BE(at);
    if (at + 4 + length > end) {
      return null;
    }
    const list = transcript.subarray(at + 4, at + 4 + length).toString('latin1');
    lists.push(list === '' ? [] : list.split(','));
    at += 4 + length;
  }
  // Order per RFC 4253 §7.1: kex, host key, cipher c→s, cipher s→c, MAC c→s, MAC s→c, compression ×2, languages ×2.
  return {
    kex: lists[0]!,
    hostKey: lists[1]!,
    ciphers: [...new Set([...lists[2]!, ...lists[3]!])],
    macs: [...new Set([...lists[4]!, ...lists[5]!])],
  };
}

/** SHA-1 or 1024-bit-group key exchange (RFC 9142 says MUST NOT / SHOULD NOT). */
const weakKex =
  /^(diffie-hellman-group1-sha1|diffie-hellman-group14-sha1|diffie-hellman-group-exchange-sha1|rsa1024-sha1|gss-(gex|group1|group14)-sha1-.*)$/;
/** CBC mode (plaintext recovery, CVE-2008-5161), RC4 (RFC 8758), DES/3DES, Blowfish, CAST and no cipher at all. */
const weakCipher = /^(.*-cbc(@.*)?|arcfour.*|none|des(@ssh\.com)?|rijndael-cbc@lysator\.liu\.se)$/;
/** MD5 and truncated (96-bit) MACs, and no MAC at all. */
const weakMac = /^(hmac-md5.*|.*-96(-etm)?(@openssh\.com)?|none)$/;

export interface SshWeaknesses {
  kex: string[];
  ciphers: string[];
  macs: string[];
}

export function sshWeaknesses(algorithms: SshAlgorithms): SshWeaknesses {
  return {
    kex: algorithms.kex.filter((name) => weakKex.test(name)),
    ciphers: algorithms.ciphers.filter((name) => weakCipher.test(name)),
    macs: algorithms.macs.filter((name) => weakMac.test(name)),
  };
}

/** Our identification string (RFC 4253 §4.2), sent so the server goes on to its KEXINIT. */
export const scannerIdent = 'SSH-2.0-VigilScanner_0.1\r\n';
