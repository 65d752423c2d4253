import { describe, expect, it } from 'vitest';

import { identifyGreeting } from './greetings.ts';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

/** A MySQL protocol 10 handshake packet for `version` (header: 3-byte length, sequence 0). */
function mysqlHandshake(version: string, length?: number): Buffer {
  const payload = Buffer.concat([Buffer.from([0x0a]), latin1(`${version}\0`), Buffer.alloc(40, 0x31)]);
  const header = Buffer.alloc(4);
  header.writeUIntLE(length ?? payload.length, 0, 3);
  return Buffer.concat([header, payload]);
}

describe('service greetings', () => {
  it('names SSH from a complete identification line, kept printable', () => {
    expect(identifyGreeting(latin1('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u7\r\n'), 22)).toEqual({
      name: 'ssh',
      banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u7',
    });
    expect(identifyGreeting(latin1('SSH-2.0-OpenSSH_7.4 \x1b]0;x\x07\x1b[2Jok\r\n'), 22)?.banner).toBe(
      'SSH-2.0-OpenSSH_7.4  ]0;x [2Jok',
    );
    // Not a line (yet), no software version, or longer than the 255 bytes an identification may have.
    expect(identifyGreeting(latin1('SSH-2.0-OpenSSH_9.2p1'), 22)).toBeNull();
    expect(identifyGreeting(latin1('SSH-2.0-\r\n'), 22)).toBeNull();
    expect(identifyGreeting(latin1(`SSH-2.0-${'x'.repeat(300)}\r\n`), 22)).toBeNull();
  });

  it("tells FTP from SMTP by the greeting's words, by the port only when they say neither", () => {
    expect(identifyGreeting(latin1('220 mail ESMTP Postfix\r\n'), 2525)?.name).toBe('smtp');
    expect(identifyGreeting(latin1('220 Gateway FTP service ready\r\n'), 25)?.name).toBe('ftp');
    expect(identifyGreeting(latin1('220 ready\r\n'), 587)?.name).toBe('smtp');
    expect(identifyGreeting(latin1('220 ready\r\n'), 2121)?.name).toBe('ftp');
    expect(identifyGreeting(latin1('220 ready'), 21)).toBeNull();
  });

  it('names VNC, Telnet, POP3 and IMAP only from whole messages of their protocol', () => {
    expect(identifyGreeting(latin1('RFB 003.008\n'), 5900)).toEqual({ name: 'vnc', banner: 'RFB 003.008' });
    expect(identifyGreeting(latin1('RFB 3.8\n'), 5900)).toBeNull();
    expect(identifyGreeting(Buffer.from([0xff, 0xfd, 0x18]), 23)?.name).toBe('telnet');
    expect(identifyGreeting(Buffer.from([0xff, 0xff, 0x41]), 23)).toBeNull();
    expect(identifyGreeting(latin1('+OK Dovecot ready.\r\n'), 110)?.name).toBe('pop3');
    expect(identifyGreeting(latin1('+OK'), 110)).toBeNull();
    expect(identifyGreeting(latin1('* OK IMAP ready\r\n'), 143)?.name).toBe('imap');
  });

  it('names MySQL only from a handshake whose header agrees with it', () => {
    expect(identifyGreeting(mysqlHandshake('5.5.5-10.11.6-MariaDB-0+deb12u1'), 3306)).toEqual({
      name: 'mysql',
      banner: 'MySQL protocol 10, version 5.5.5-10.11.6-MariaDB-0+deb12u1',
    });
    // A length beyond what arrived, a sequence other than 0, a version that is not one.
    expect(identifyGreeting(mysqlHandshake('8.0.36', 500), 3306)).toBeNull();
    const sequenced = mysqlHandshake('8.0.36');
    sequenced[3] = 1;
    expect(identifyGreeting(sequenced, 3306)).toBeNull();
    expect(identifyGreeting(mysqlHandshake('\x1b[2J'), 3306)).toBeNull();
  });
});
