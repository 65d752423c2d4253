import { describe, expect, it } from 'vitest';
import { parseKexInit, sshWeaknesses } from './ssh-kex.ts';

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
  'curve25519-sha256,diffie-hellman-group16-sha512',
  'ssh-ed25519',
  'chacha20-poly1305@openssh.com,aes128-ctr',
  'chacha20-poly1305@openssh.com,aes128-ctr',
  'hmac-sha2-256-etm@openssh.com,umac-64@openssh.com,hmac-sha1',
  'hmac-sha2-256-etm@openssh.com,umac-64@openssh.com,hmac-sha1',
  'none,zlib@openssh.com',
  'none,zlib@openssh.com',
  '',
  '',
];

describe('SSH KEXINIT', () => {
  it('reads the algorithm lists and finds nothing weak in a modern default offer', () => {
    const offered = parseKexInit(transcript(modern));
    expect(offered?.kex).toEqual(['curve25519-sha256', 'diffie-hellman-group16-sha512']);
    expect(offered?.ciphers).toEqual(['chacha20-poly1305@openssh.com', 'aes128-ctr']);
    expect(sshWeaknesses(offered!)).toEqual({ kex: [], ciphers: [], macs: [] });
  });

  it('names SHA-1 key exchange, CBC/3DES ciphers and MD5/truncated MACs', () => {
    const weak = [...modern];
    weak[0] = 'curve25519-sha256,diffie-hellman-group1-sha1,diffie-hellman-group14-sha1';
    weak[2] = 'aes128-ctr,aes256-cbc,3des-cbc';
    weak[3] = 'aes128-ctr,arcfour256';
    weak[4] = 'hmac-sha2-256,hmac-md5,hmac-sha1-96';
    expect(sshWeaknesses(parseKexInit(transcript(weak))!)).toEqual({
      kex: ['diffie-hellman-group1-sha1', 'diffie-hellman-group14-sha1'],
      ciphers: ['aes256-cbc', '3des-cbc', 'arcfour256'],
      macs: ['hmac-md5', 'hmac-sha1-96'],
    });
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
});
