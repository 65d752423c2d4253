// Services that speak first (SSH, FTP, SMTP, VNC, Telnet, MySQL, POP3, IMAP), named from their greeting.
// A greeting counts only when it is a complete, well-formed message of its protocol, not bytes that merely
// start the right way: a lying or broken service is then "unknown", never a service with findings.
// Whatever a greeting holds is kept as printable text only (it reaches evidence, reports and terminals).
import { describeTelnet, readTelnetGreeting } from './telnet.ts';
import { printable } from './printable-bytes.ts';
import { mysqlGreeting } from './wire.ts';

export interface ServiceInfo {
  name: string;
  /** What identified it: the banner or the reply, printable and short. */
  banner: string;
}

/** RFC 4253 §4.2: the identification line is at most 255 bytes with its CR LF. */
const sshIdentification = /^SSH-\d+\.\d+-[^\r\n]{1,245}\r?\n/;
/** RFC 959 §4.2 / RFC 5321 §4.2: "220" then a space or hyphen, and a complete line. */
const ready = /^220[ -][^\n]*\n/;
/** RFB ProtocolVersion: exactly "RFB xxx.yyy\n" (RFC 6143 §7.1.1). */
const rfb = /^RFB \d{3}\.\d{3}\n/;

/** A greeting nothing recognises, as printable text (or its size when none of it is printable). */
export function unknownGreeting(data: Buffer): ServiceInfo {
  return { name: 'unknown', banner: printable(data) || `${data.length} bytes, none printable` };
}

export function identifyGreeting(data: Buffer, port: number): ServiceInfo | null {
  const text = data.toString('latin1');
  const ssh = sshIdentification.exec(text);
  if (ssh) {
    return { name: 'ssh', banner: printable(Buffer.from(ssh[0], 'latin1'), 255) };
  }
  if (ready.test(text)) {
    // The greeting's words decide; the port only when they say neither.
    const smtp = /E?SMTP|Postfix|Exim|Sendmail/i.test(text);
    const ftp = /FTP|FileZilla/i.test(text);
    return {
      name: smtp || (!ftp && [25, 465, 587].includes(port)) ? 'smtp' : 'ftp',
      banner: printable(data),
    };
  }
  if (rfb.test(text)) {
    return { name: 'vnc', banner: printable(data.subarray(0, 12)) };
  }
  const telnet = readTelnetGreeting(data);
  if (telnet) {
    return { name: 'telnet', banner: describeTelnet(telnet) };
  }
  const mysql = mysqlGreeting(data);
  if (mysql) {
    return { name: 'mysql', banner: `MySQL protocol 10, version ${mysql}` };
  }
  if (/^\+OK[^\n]*\n/.test(text)) {
    return { name: 'pop3', banner: printable(data) };
  }
  if (/^\* OK[^\n]*\n/.test(text)) {
    return { name: 'imap', banner: printable(data) };
  }
  return null;
}
