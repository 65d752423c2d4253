// The real size of the Diffie-Hellman groups a server hands out in group exchange (RFC 4419): the
// KEXINIT only names "diffie-hellman-group-exchange-*"; the prime comes from the server's moduli file.
// We answer its KEXINIT choosing group exchange, ask for a group (SSH_MSG_KEX_DH_GEX_REQUEST with
// min 1024, preferred 1024, max 8192, as a legacy client would) and read the size of the prime in its
// SSH_MSG_KEX_DH_GEX_GROUP. The exchange stops there: no key is computed, nothing is authenticated.
import { randomBytes } from 'node:crypto';

import type { SshAlgorithms } from './ssh-kex.ts';
import { binaryPacket, mpintBits, nameList, SshReader, uint32 } from './ssh-packet.ts';

const SSH_MSG_KEXINIT = 20;
const SSH_MSG_KEX_DH_GEX_GROUP = 31;
const SSH_MSG_KEX_DH_GEX_REQUEST = 34;

/** What we ask for: the smallest group RFC 4419 allows, so a server that keeps small primes shows one. */
export const gexRequest = { min: 1024, preferred: 1024, max: 8192 } as const;

/** Below this, a group gives less than 112 bits of security (NIST SP 800-57, RFC 9142 §2). */
export const minimumGroupBits = 2048;

/** The group-exchange method to test, preferring SHA-256 (the prime pool is the same for both). */
export function groupExchangeMethod(offered: SshAlgorithms): string | null {
  return (
    ['diffie-hellman-group-exchange-sha256', 'diffie-hellman-group-exchange-sha1'].find((name) =>
      offered.kex.includes(name),
    ) ?? null
  );
}

/**
 * Our KEXINIT (choosing `method`, and otherwise the server's own lists so that every negotiation
 * succeeds) followed by the group request, as two unencrypted packets.
 */
export function groupExchangeOpening(offered: SshAlgorithms, method: string): Buffer {
  const [, hostKeys, cipherCs, cipherSc, macCs, macSc, compCs, compSc] = offered.lists;
  const kexinit = Buffer.concat([
    Buffer.from([SSH_MSG_KEXINIT]),
    randomBytes(16),
    nameList([method]),
    ...[hostKeys, cipherCs, cipherSc, macCs, macSc, compCs, compSc].map((list) => nameList(list ?? [])),
    nameList([]),
    nameList([]),
    Buffer.from([0]), // first_kex_packet_follows
    uint32(0),
  ]);
  const request = Buffer.concat([
    Buffer.from([SSH_MSG_KEX_DH_GEX_REQUEST]),
    uint32(gexRequest.min),
    uint32(gexRequest.preferred),
    uint32(gexRequest.max),
  ]);
  return Buffer.concat([binaryPacket(kexinit), binaryPacket(request)]);
}

/** The bit length of the prime in a KEX_DH_GEX_GROUP payload, or null for any other message. */
export function groupBits(payload: Buffer): number | null {
  try {
    const reader = new SshReader(payload);
    return reader.byte() === SSH_MSG_KEX_DH_GEX_GROUP ? mpintBits(reader.bytes()) : null;
  } catch {
    // Guard: a truncated group is no answer, not a scanner crash.
    return null;
  }
}
