// FTP: whether the server offers TLS at all (AUTH TLS, RFC 4217), whether it lets the anonymous user in
// (RFC 1635), and, as an intrusive check of its own that runs only with the owner's consent
// (registry.ts `infra.ftp-write`), whether that user can write: we store one uniquely named marker file
// and delete it at once, and say so in the evidence. Nothing else is ever written; nothing existing is touched.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

import type { FileInfo } from 'basic-ftp';

import type { Finding } from '../../../shared/findings.ts';
import type { CheckContext } from './check-context.ts';
import { grab } from './grab.ts';
import type { Step } from './grab.ts';
import { slowServiceMs } from './identify.ts';
import { infrastructureFinding } from './rules.ts';

const anonymousPassword = 'vigil-scanner@example.com';

/** The complete last reply in `text` (RFC 959 §4.2: "code space text"), or null while it is partial. */
function lastReply(text: string): { code: number; line: string } | null {
  const last = /^(\d{3}) [^\n]*\n$/m.exec(text.slice(text.lastIndexOf('\n', text.length - 2) + 1));
  return last ? { code: Number(last[1]), line: last[0].trim() } : null;
}

// A reply split over reads, or a multi-line one ("220-..."), is waited for, not answered half-way.
const after =
  (code: number, message: string): Step =>
  (got) => {
    const reply = lastReply(got.toString('latin1'));
    return !reply ? 'wait' : reply.code === code ? Buffer.from(message) : null;
  };
/** Done at the first complete reply after the greeting. */
const untilReply: Step = (got) => {
  const text = got.toString('latin1');
  const greeting = /^220 [^\n]*\n/m.exec(text);
  const rest = greeting ? text.slice(greeting.index + greeting[0].length) : '';
  return lastReply(rest) ? 'done' : 'wait';
};

const talk = (ctx: CheckContext, then: Step[]) =>
  grab(ctx.address, ctx.port, null, {
    firstByteMs: Math.max(ctx.timing.firstByteMs * 2, slowServiceMs),
    then,
    signal: ctx.signal,
  });

/** The 230 reply to an anonymous login, or null. Our own conversation, not basic-ftp's: it waits out
 * replies split anywhere, even inside the reply code, which basic-ftp does not. */
async function anonymousLogin(ctx: CheckContext): Promise<string | null> {
  const text = (
    await talk(ctx, [
      after(220, 'USER anonymous\r\n'),
      after(331, `PASS ${anonymousPassword}\r\n`),
      after(230, 'QUIT\r\n'),
    ])
  ).toString('latin1');
  return /^230 .*$/m.exec(text)?.[0].trim() ?? null;
}

/** The answer to AUTH TLS before login: 234 means TLS is available; null when the server said nothing. */
async function authTlsReply(ctx: CheckContext): Promise<{ code: number; line: string } | null> {
  const text = (await talk(ctx, [after(220, 'AUTH TLS\r\n'), untilReply])).toString('latin1');
  const greeting = /^220 [^\n]*\n/m.exec(text);
  return greeting ? lastReply(text.slice(greeting.index + greeting[0].length)) : null;
}

/** Directories worth a write attempt: the login directory, then those that look writable or are named for uploads. */
function writeCandidates(listing: FileInfo[]): string[] {
  const directories = listing.filter((entry) => entry.isDirectory && !/^\.\.?$/.test(entry.name));
  // World-writable in the listing first (what nmap's ftp-anon flags), then the usual upload names.
  const score = (entry: FileInfo) =>
    ((entry.permissions?.world ?? 0) & 2 ? 2 : 0) +
    Number(/^(incoming|upload|uploads|pub|public|tmp|temp|drop|dropbox|share)$/i.test(entry.name));
  return [
    '',
    ...directories
      .sort((a, b) => score(b) - score(a))
      .slice(0, 6)
      .map((entry) => entry.name),
  ];
}

/** An FTP server's error reply as text (basic-ftp's FTPError carries its code). */
const reply = (error: unknown) =>
  error instanceof Error && error.name === 'FTPError'
    ? `${(error as Error & { code: number }).code} ${error.message.replace(/^\d{3} /, '')}`
    : String(error);

/** Logs in as anonymous again and tries to store and delete one marker; the evidence when it could write. */
export async function anonymousWrite(ctx: CheckContext): Promise<string | null> {
  // basic-ftp loads with the first FTP server that lets the anonymous user in, not with every scan.
  const { Client } = await import('basic-ftp');
  const client = new Client(Math.max(ctx.timing.firstByteMs * 4, slowServiceMs));
  const abort = () => client.close();
  ctx.signal?.addEventListener('abort', abort, { once: true });
  try {
    await client.access({
      host: ctx.address,
      port: ctx.port,
      user: 'anonymous',
      password: anonymousPassword,
    });
    const listing = await client.list().catch(() => [] as FileInfo[]);
    const marker = `vigil-scan-write-test-${randomBytes(6).toString('hex')}.txt`;
    for (const directory of writeCandidates(listing)) {
      const file = directory ? `${directory}/${marker}` : marker;
      let stored: string;
      try {
        stored = (await client.uploadFrom(Readable.from([markerContent]), file)).message;
      } catch {
        // Refused here (550, 553): try the next directory.
        continue;
      }
      const removed = await client.remove(file).then(
        (done) => `DELE removed it (${done.message})`,
        (error: unknown) => `DELE failed (${reply(error)}): the marker is still there, delete it by hand`,
      );
      return `anonymous STOR of /${file} accepted (${stored}); ${removed}`;
    }
    return null;
  } catch {
    // A server that breaks the conversation after login (no TYPE I, no passive mode) shows no write access.
    return null;
  } finally {
    ctx.signal?.removeEventListener('abort', abort);
    client.close();
  }
}

const markerContent =
  'Written by a Vigil security scan to test anonymous write access; the scan deletes it at once.\n';

export async function ftpFindings(ctx: CheckContext): Promise<Finding[]> {
  const [login, tls] = await Promise.all([anonymousLogin(ctx), authTlsReply(ctx)]);
  const findings: Finding[] = [];
  if (tls && tls.code !== 234) {
    findings.push(
      infrastructureFinding('infra.ftp.cleartext', {
        location: ctx.location,
        evidence: `AUTH TLS answered "${tls.line}": logins and files cross the network in clear text`,
      }),
    );
  }
  if (!login) {
    return findings;
  }
  findings.push(
    infrastructureFinding('infra.ftp.anonymous', {
      location: ctx.location,
      evidence: `USER anonymous accepted: ${login}`,
    }),
  );
  return findings;
}

/** The intrusive half: whether the anonymous user may write, on a server where it logged in. */
export async function ftpWriteFindings(ctx: CheckContext): Promise<Finding[]> {
  const write = await anonymousWrite(ctx);
  return write
    ? [infrastructureFinding('infra.ftp.anonymous-write', { location: ctx.location, evidence: write })]
    : [];
}
