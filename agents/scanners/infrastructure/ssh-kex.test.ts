import { describe, expect, it } from 'vitest';
import {
  describeCut,
  describeWeak,
  parseKexInit,
  readKexInit,
  sshWeaknesses,
  terrapinExposure,
} from './ssh-kex.ts';
import { maxPacket } from './ssh-packet.ts';

/** A server transcript: identification line, then one KEXINIT binary packet with the given lists. */
function transcript(lists: string[], banner = 'SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n'): Buffer {
  const fields = lists.map((list) => {
    const bytes = Buffer.from(list, 'latin1');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  });
  const payload = Buffer.concat([Buffer.from([20]), Buffer.alloc(16, 7), ...fields, Buffer.alloc(5)]);
  const padding = 8 - ((payload.length + 5) % 8) + 4;
  const header = Buffer.alloc(5);
  header.writeUInt32BE(1 + payload.length + padding);
  header[4] = padding;
  return Buffer.concat([Buffer.from(banner, 'latin1'), header, payload, Buffer.alloc(padding)]);
}

const modern = [
  'curve25519-sha256,diffie-hellman-group16-sha512,kex-strict-s-v00@openssh.com',
  'ssh-ed25519,rsa-sha2-512',
  'chacha20-poly1305@openssh.com,aes128-ctr',
  'chacha20-poly1305@openssh.com,aes128-ctr',
  'hmac-sha2-256-etm@openssh.com,umac-64@openssh.com',
  'hmac-sha2-256-etm@openssh.com,umac-64@openssh.com',
  'none,zlib@openssh.com',
  'none,zlib@openssh.com',
  '',
  '',
];

describe('SSH KEXINIT', () => {
  it('reads the algorithm lists and finds nothing weak in a modern default offer', () => {
    const offered = parseKexInit(transcript(modern));
    expect(offered?.kex).toEqual([
      'curve25519-sha256',
      'diffie-hellman-group16-sha512',
      'kex-strict-s-v00@openssh.com',
    ]);
    expect(offered?.ciphers).toEqual(['chacha20-poly1305@openssh.com', 'aes128-ctr']);
    expect(offered?.lists).toHaveLength(10);
    expect(sshWeaknesses(offered!)).toEqual({ kex: [], hostKeys: [], ciphers: [], macs: [] });
    expect(terrapinExposure(offered!)).toBeNull();
  });

  it('names each weak key exchange, host key, cipher and MAC with its reason', () => {
    const weak = [...modern];
    weak[0] =
      'curve25519-sha256,diffie-hellman-group1-sha1,diffie-hellman-group14-sha1,diffie-hellman-group-exchange-sha1,diffie-hellman-group-exchange-sha256';
    weak[1] = 'rsa-sha2-512,ssh-rsa,ssh-dss,ssh-ed25519';
    weak[2] = 'aes128-ctr,aes256-cbc,3des-cbc';
    weak[3] = 'aes128-ctr,arcfour256';
    weak[4] = 'hmac-sha2-256,hmac-md5,hmac-sha1-96,hmac-sha1,hmac-sha1-etm@openssh.com';
    const found = sshWeaknesses(parseKexInit(transcript(weak))!);
    expect(describeWeak(found.kex)).toBe(
      'diffie-hellman-group1-sha1 (1024-bit group, SHA-1), diffie-hellman-group14-sha1 (SHA-1), diffie-hellman-group-exchange-sha1 (SHA-1)',
    );
    expect(describeWeak(found.hostKeys)).toBe(
      'ssh-rsa (RSA signatures with SHA-1), ssh-dss (DSA: 1024-bit key, SHA-1)',
    );
    expect(describeWeak(found.ciphers)).toBe(
      'aes256-cbc (CBC mode), 3des-cbc (3DES, 64-bit block, CBC), arcfour256 (RC4)',
    );
    expect(found.macs.map((m) => m.name)).toEqual([
      'hmac-md5',
      'hmac-sha1-96',
      'hmac-sha1',
      'hmac-sha1-etm@openssh.com',
    ]);
    expect(found.macs[1]!.why).toBe('SHA-1, truncated to 96 bits');
  });

  it('sees the Terrapin exposure: ChaCha20-Poly1305 or CBC with EtM, without strict key exchange', () => {
    const loose = [...modern];
    loose[0] = 'curve25519-sha256';
    expect(terrapinExposure(parseKexInit(transcript(loose))!)).toMatch(
      /^offers chacha20-poly1305@openssh.com without strict key exchange/,
    );
    const cbcEtm = [...loose];
    cbcEtm[2] = cbcEtm[3] = 'aes128-ctr,aes128-cbc';
    expect(terrapinExposure(parseKexInit(transcript(cbcEtm))!)).toMatch(
      /^offers aes128-cbc, hmac-sha2-256-etm@openssh.com without/,
    );
    const ctrEtm = [...loose];
    ctrEtm[2] = ctrEtm[3] = 'aes128-ctr,aes256-gcm@openssh.com';
    expect(terrapinExposure(parseKexInit(transcript(ctrEtm))!)).toBeNull();
  });

  it('returns null for a banner alone, a truncated packet or another message', () => {
    expect(parseKexInit(Buffer.from('SSH-2.0-OpenSSH_7.4\r\n'))).toBeNull();
    const full = transcript(modern);
    expect(parseKexInit(full.subarray(0, full.length - 20))).toBeNull();
    const other = Buffer.from(full);
    other[Buffer.byteLength('SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n') + 5] = 21;
    expect(parseKexInit(other)).toBeNull();
    const huge = Buffer.from(full);
    huge.writeUInt32BE(0x7fffffff, Buffer.byteLength('SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n'));
    expect(parseKexInit(huge)).toBeNull();
  });

  it('reads a KEXINIT padded past the old 16 KB bound whole, and judges each name once', () => {
    const pad = (list: string) =>
      [...Array.from({ length: 500 }, (_, i) => `pad${i}@padding.example`), ...list.split(',')].join(',');
    const lists = modern.map((list, i) => (i < 6 ? pad(list) : list));
    lists[2] = pad('aes128-ctr,3des-cbc,3des-cbc');
    const read = readKexInit(transcript(lists));
    expect(read?.cut).toBeUndefined();
    expect(describeWeak(sshWeaknesses(read!.algorithms).ciphers)).toBe('3des-cbc (3DES, 64-bit block, CBC)');
  });

  it('reads the whole lists of a KEXINIT cut at the packet limit, and says which were not read', () => {
    const lists = [...modern];
    lists[0] = 'diffie-hellman-group1-sha1';
    lists[1] = Array.from({ length: 12_000 }, (_, i) => `pad${i}@padding.example`).join(',');
    const full = transcript(lists);
    // A server that announces more than OpenSSH accepts: only the limit is read.
    const read = readKexInit(full.subarray(0, 64 + maxPacket));
    expect(read?.cut?.announced).toBeGreaterThan(maxPacket);
    expect(read?.cut?.unread).toEqual(['host key', 'ciphers', 'MACs', 'compression', 'languages']);
    expect(describeWeak(sshWeaknesses(read!.algorithms).kex)).toBe(
      'diffie-hellman-group1-sha1 (1024-bit group, SHA-1)',
    );
    expect(describeCut(read!.cut!)).toMatch(
      /^the server's KEXINIT announced \d+ bytes, more than the 262144 any OpenSSH/,
    );
    // A server that stopped sending part-way through a packet within the limit.
    const small = transcript(modern);
    const stopped = readKexInit(small.subarray(0, small.length - 60));
    expect(stopped?.cut?.unread).toEqual(['compression', 'languages']);
    expect(describeCut(stopped!.cut!)).toMatch(/and stopped sending/);
  });

  it('names at most sixteen weak algorithms, and ignores names longer than an algorithm name may be', () => {
    const weak = sshWeaknesses({
      kex: [],
      hostKey: [],
      ciphers: [...Array.from({ length: 20 }, (_, i) => `c${i}-cbc`), `${'x'.repeat(80)}-cbc`],
      macs: [],
      lists: [],
    });
    expect(weak.ciphers).toHaveLength(20);
    expect(describeWeak(weak.ciphers)).toMatch(/c15-cbc \(CBC mode\) \(\+4 more\)$/);
  });
});
