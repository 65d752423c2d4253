import { getDiffieHellman } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { groupBits, groupExchangeMethod, groupExchangeOpening } from './ssh-gex.ts';
import { parseKexInitPayload } from './ssh-kex.ts';
import { binaryPacket, readPayloads, sshString, SshReader } from './ssh-packet.ts';

const offered = parseKexInitPayload(
  Buffer.concat([
    Buffer.from([20]),
    Buffer.alloc(16, 1),
    ...[
      'curve25519-sha256,diffie-hellman-group-exchange-sha1',
      'rsa-sha2-512,ssh-rsa',
      'aes128-ctr',
      'aes256-ctr',
      'hmac-sha2-256',
      'hmac-sha1',
      'none',
      'none,zlib@openssh.com',
      '',
      '',
    ].map((list) => sshString(list)),
    Buffer.alloc(5),
  ]),
)!;

describe('SSH group exchange probe', () => {
  it("answers the KEXINIT with group exchange and the server's own lists, then asks for a 1024-bit group", () => {
    expect(groupExchangeMethod(offered)).toBe('diffie-hellman-group-exchange-sha1');
    const opening = groupExchangeOpening(offered, 'diffie-hellman-group-exchange-sha1');
    const [kexinit, request] = readPayloads(Buffer.concat([Buffer.from('SSH-2.0-x\r\n'), opening]))!;
    const ours = parseKexInitPayload(kexinit!)!;
    expect(ours.kex).toEqual(['diffie-hellman-group-exchange-sha1']);
    expect(ours.hostKey).toEqual(['rsa-sha2-512', 'ssh-rsa']);
    expect(ours.lists[3]).toEqual(['aes256-ctr']);
    expect(ours.lists[7]).toEqual(['none', 'zlib@openssh.com']);
    const reader = new SshReader(request!);
    expect([reader.byte(), reader.uint32(), reader.uint32(), reader.uint32()]).toEqual([
      34, 1024, 1024, 8192,
    ]);
    // Every packet is a multiple of 8 bytes with 4 or more bytes of padding (RFC 4253 §6).
    expect(opening.length % 8).toBe(0);
  });

  it('reads the size of the prime the server sends', () => {
    const prime = getDiffieHellman('modp2').getPrime();
    const group = (p: Buffer) =>
      Buffer.concat([
        Buffer.from([31]),
        sshString(Buffer.concat([Buffer.from([0]), p])),
        sshString(Buffer.from([2])),
      ]);
    expect(groupBits(group(prime))).toBe(1024);
    expect(groupBits(group(getDiffieHellman('modp14').getPrime()))).toBe(2048);
    expect(groupBits(Buffer.from([1, 0, 0, 0, 2]))).toBeNull();
    expect(groupBits(group(prime).subarray(0, 20))).toBeNull();
    expect(
      readPayloads(Buffer.concat([Buffer.from('SSH-2.0-x\r\n'), binaryPacket(group(prime))])),
    ).toHaveLength(1);
  });
});
