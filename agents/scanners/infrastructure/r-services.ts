// The Berkeley r-services: rlogin (513), rsh (514) and rexec (512). Each opens with NUL-terminated
// strings and answers one status byte (0: taken, 1: refused and an error text). rshd and rlogind refuse
// a client whose source port is not reserved (512-1023): we take one when we may bind it.
import { grab } from './grab.ts';
import { printable } from './printable-bytes.ts';

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
  /** Accepted, and the command's output came back; false when the account's shell refused to run it. */
  ran?: boolean;
}

/** Refusals of rshd: netkit/BSD send byte 1 and the text, rsh-redone byte 0 and the PAM error. */
const rshRefusal =
  /^(Permission denied|Login incorrect|Authentication failure|(remuser|locuser|command) too long|Logins currently disabled|Can't make pipe|Try again)/i;
const rexecRefusal =
  /^((username|password|command) too long|Login incorrect|Password incorrect|Where are you\?|No remote directory)/i;
/**
 * What nologin (util-linux, shadow, FreeBSD) prints when rshd has authenticated the claim and runs the
 * command with the account's shell: the trust held, the command did not run.
 */
const nologinAnswer = /^This account is currently not available\.?$/;

/**
 * rsh's answer to rshRequest: refused, or accepted with the command's output (id's "uid=...") or with
 * nologin's answer. Any other text after byte 0 proves nothing and is neither.
 */
export function parseRshReply(data: Buffer): RReply | null {
  const text = printable(data.subarray(1), 200);
  if (data[0] === 0 && /^uid=\d+\(/.test(text)) {
    return { accepted: true, text, ran: true };
  }
  if (data[0] === 0 && nologinAnswer.test(text)) {
    return { accepted: true, text, ran: false };
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
  /** The command's output, or the shell's refusal when it did not run. */
  output: string;
  ran: boolean;
}

/**
 * Non-root accounts present on practically every Unix (Linux, the BSDs, Solaris, AIX, HP-UX), claimed with
 * the same name as client user: a hosts.equiv line without a user name trusts exactly that (the remote user
 * must equal the local one). Their shells are nologin on most systems today, so nothing runs; where one is
 * a real shell, `id` runs.
 */
export const hostTrustAccounts = ['bin', 'daemon', 'sys', 'nobody'] as const;

/** The given source port first, then random reserved ones when it cannot be bound (grab's chooser). */
const startingAt = (first: number) => {
  let next = first;
  return () => {
    const port = next;
    next = reservedPort();
    return port;
  };
};

/** Distinct reserved source ports for claims sent side by side, from a random start. */
export const reservedPorts = (count: number, first = reservedPort()) =>
  Array.from({ length: count }, (_, i) => 512 + ((first - 512 + i * 97) % 512));

/**
 * One claim, asked once more from another source port when it got no answer to judge (nothing, or the
 * status byte alone): a busy inetd or host drops or delays a few of the claims sent side by side.
 */
async function claim(
  address: string,
  port: number,
  account: string,
  firstByteMs: number,
  signal: AbortSignal | undefined,
  localPort: number,
): Promise<RshTrust | null> {
  let data: Buffer = Buffer.alloc(0);
  for (let attempt = 0; attempt < 2 && data.length <= 1 && !signal?.aborted; attempt += 1) {
    data = await grab(address, port, rshRequest(account, account), {
      firstByteMs,
      signal,
      localPort: startingAt(attempt === 0 || localPort === 0 ? localPort : reservedPort()),
    });
  }
  const reply = parseRshReply(data);
  return reply?.accepted
    ? { clientUser: account, account, output: reply.text, ran: reply.ran === true }
    : null;
}

/**
 * Whether rshd runs a command for a claimed root without a password: root's ~/.rhosts naming this host
 * or "+" (hosts.equiv never applies to root: rshHostTrust).
 */
export function rshTrust(
  address: string,
  port: number,
  firstByteMs: number,
  signal?: AbortSignal,
  localPort = reservedPort(),
): Promise<RshTrust | null> {
  return claim(address, port, 'root', firstByteMs, signal, localPort);
}

/**
 * The non-root accounts rshd accepts without a password for the same-named client user: /etc/hosts.equiv
 * trusting this host ("+" or its name), or those accounts' own ~/.rhosts. One claim per account, side by
 * side, each from a source port of its own.
 */
export async function rshHostTrust(
  address: string,
  port: number,
  firstByteMs: number,
  signal?: AbortSignal,
  localPorts: number[] = reservedPorts(hostTrustAccounts.length),
): Promise<RshTrust[]> {
  const claims = await Promise.all(
    hostTrustAccounts.map((account, i) =>
      claim(address, port, account, firstByteMs, signal, localPorts[i] ?? reservedPort()),
    ),
  );
  return claims.filter((trust): trust is RshTrust => trust !== null);
}
