// The Berkeley r-services: rlogin (513), rsh (514) and rexec (512). Each opens with NUL-terminated
// strings and answers one status byte (0: taken, 1: refused and an error text). rshd and rlogind refuse
// a client whose source port is not reserved (512-1023): we take one when we may bind it.
import { grab } from './grab.ts';
import { printable } from './text.ts';

export const reservedPort = () => 512 + Math.floor(Math.random() * 512);

/** rlogin (RFC 1282): NUL, client user, NUL, server account, NUL, terminal/speed, NUL. */
export const rloginHandshake = Buffer.from('\0vigil-scan\0vigil-scan\0xterm/38400\0', 'latin1');

/**
 * rsh: stderr port ("0": none, stderr joins the connection), client user, server account, command.
 * A harmless, read-only command whose output proves it ran.
 */
export const rshCommand = 'id';
export const rshRequest = (clientUser: string, account: string) =>
  Buffer.from(`0\0${clientUser}\0${account}\0${rshCommand}\0`, 'latin1');
/** Identification claims an account no system has, so that nothing runs. */
export const rshIdentifyRequest = rshRequest('vigil-scan', 'vigil-scan');

/**
 * rexec: stderr port, user, password, command. The user name is invalid and longer than the 16 bytes BSD
 * and netkit rexecd accept, so they refuse it before authentication ("username too long"); a server that
 * takes longer names finds no such user. Nothing can log in.
 */
export const rexecRequest = Buffer.from('0\0vigil-scan-no-such-user\0vigil-scan-invalid\0true\0', 'latin1');

export interface RReply {
  accepted: boolean;
  /** What followed the status byte, printable. */
  text: string;
}

/** Refusals of rshd: netkit/BSD send byte 1 and the text, rsh-redone byte 0 and the PAM error. */
const rshRefusal =
  /^(Permission denied|Login incorrect|Authentication failure|(remuser|locuser|command) too long|Logins currently disabled|Can't make pipe|Try again)/i;
const rexecRefusal =
  /^((username|password|command) too long|Login incorrect|Password incorrect|Where are you\?|No remote directory)/i;

/** rsh's answer to rshRequest: refused, or accepted with the command's output (id's "uid=..."). */
export function parseRshReply(data: Buffer): RReply | null {
  const text = printable(data.subarray(1), 200);
  if (data[0] === 0 && /^uid=\d+\(/.test(text)) {
    return { accepted: true, text };
  }
  return (data[0] === 0 || data[0] === 1) && rshRefusal.test(text) ? { accepted: false, text } : null;
}

/** rexec's answer to rexecRequest: only a refusal is expected (the user cannot exist). */
export function parseRexecReply(data: Buffer): RReply | null {
  const text = printable(data.subarray(1), 200);
  return data[0] === 1 && rexecRefusal.test(text) ? { accepted: false, text } : null;
}

export interface RshTrust {
  clientUser: string;
  account: string;
  output: string;
}

/**
 * Whether rshd runs a command for a claimed root without a password: root's ~/.rhosts naming this host
 * or "+" (hosts.equiv never applies to root, and we guess no other account names).
 */
export async function rshTrust(
  address: string,
  port: number,
  firstByteMs: number,
  signal?: AbortSignal,
  localPort = reservedPort(),
): Promise<RshTrust | null> {
  const [clientUser, account] = ['root', 'root'];
  const reply = parseRshReply(
    await grab(address, port, rshRequest(clientUser, account), { firstByteMs, signal, localPort }),
  );
  return reply?.accepted ? { clientUser, account, output: reply.text } : null;
}
