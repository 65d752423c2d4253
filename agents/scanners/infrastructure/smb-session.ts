// An SMB null session, the way Windows clients make one ([MS-SMB2] §3.2.4, [MS-NLMP] §3.2.5.1.2):
// NEGOTIATE (SMB 2.0.2 to 3.1.1), SESSION_SETUP with an anonymous NTLM exchange wrapped in SPNEGO
// (RFC 4178), then TREE_CONNECT to \\host\IPC$. A server that lets the anonymous session reach IPC$
// exposes its RPC services (users, shares, policies) to anyone; what it shares is read through them
// (smb-shares.ts). No credential is sent, no file is opened.
import { randomBytes } from 'node:crypto';
import net from 'node:net';

import { tlv } from './ber-tlv.ts';
import type { HiddenShares } from './smb-hidden-shares.ts';
import { hiddenShares } from './smb-hidden-shares.ts';
import type { ShareListing } from './smb-shares.ts';
import { anonymousShares } from './smb-shares.ts';
import { logoff, treeConnect, treeDisconnect } from './smb2-ops.ts';
import { Command, STATUS_MORE_PROCESSING_REQUIRED, STATUS_SUCCESS, Smb2Connection } from './smb2-wire.ts';

const dialects = [0x0202, 0x0210, 0x0300, 0x0302, 0x0311];
const ntlmFlags = 0xa0088205; // UNICODE, REQUEST_TARGET, NTLM, ALWAYS_SIGN, EXTENDED_SESSIONSECURITY, 128, 56
const NTLMSSP_NEGOTIATE_ANONYMOUS = 0x800;

/**
 * NEGOTIATE with every dialect up to 3.1.1, which needs a preauthentication-integrity context
 * ([MS-SMB2] §2.2.3.1.1): servers set to "server min protocol = SMB3" accept nothing older.
 */
export function negotiateBody(): Buffer {
  const contextAt = (64 + 36 + dialects.length * 2 + 7) & ~7;
  const body = Buffer.alloc(contextAt - 64 + 8 + 38);
  body.writeUInt16LE(36, 0);
  body.writeUInt16LE(dialects.length, 2);
  body.writeUInt16LE(1, 4); // signing enabled, not required
  randomBytes(16).copy(body, 12); // client GUID
  body.writeUInt32LE(contextAt, 28);
  body.writeUInt16LE(1, 32); // one negotiate context
  dialects.forEach((dialect, i) => body.writeUInt16LE(dialect, 36 + i * 2));
  const context = contextAt - 64;
  body.writeUInt16LE(1, context); // SMB2_PREAUTH_INTEGRITY_CAPABILITIES
  body.writeUInt16LE(38, context + 2);
  body.writeUInt16LE(1, context + 8); // one hash algorithm...
  body.writeUInt16LE(32, context + 10); // ...a 32-byte salt...
  body.writeUInt16LE(1, context + 12); // ...SHA-512
  randomBytes(32).copy(body, context + 14);
  return body;
}

function sessionSetupBody(token: Buffer): Buffer {
  const body = Buffer.alloc(24);
  body.writeUInt16LE(25, 0);
  body.writeUInt8(1, 3); // signing enabled
  body.writeUInt16LE(64 + 24, 12);
  body.writeUInt16LE(token.length, 14);
  return Buffer.concat([body, token]);
}

const spnegoOid = Buffer.from('2b0601050502', 'hex'); // 1.3.6.1.5.5.2
const ntlmOid = Buffer.from('2b0601040182370202' + '0a', 'hex'); // 1.3.6.1.4.1.311.2.2.10

function ntlmNegotiate(): Buffer {
  const message = Buffer.alloc(32);
  message.write('NTLMSSP\0', 0, 'latin1');
  message.writeUInt32LE(1, 8);
  message.writeUInt32LE(ntlmFlags, 12);
  return message;
}

/** An anonymous AUTHENTICATE: one zero byte of LM response, everything else empty ([MS-NLMP] §3.1.5.1.2). */
function ntlmAnonymousAuthenticate(challengeFlags: number): Buffer {
  const message = Buffer.alloc(64 + 1);
  message.write('NTLMSSP\0', 0, 'latin1');
  message.writeUInt32LE(3, 8);
  const field = (at: number, length: number, offset: number) => {
    message.writeUInt16LE(length, at);
    message.writeUInt16LE(length, at + 2);
    message.writeUInt32LE(offset, at + 4);
  };
  field(12, 1, 64); // LmChallengeResponse: Z(1)
  for (const at of [20, 28, 36, 44, 52]) {
    field(at, 0, 65); // NT response, domain, user, workstation, session key: empty
  }
  message.writeUInt32LE(((challengeFlags & ntlmFlags) | NTLMSSP_NEGOTIATE_ANONYMOUS) >>> 0, 60);
  return message;
}

const negTokenInit = (mechToken: Buffer) =>
  tlv(
    0x60,
    tlv(0x06, spnegoOid),
    tlv(0xa0, tlv(0x30, tlv(0xa0, tlv(0x30, tlv(0x06, ntlmOid))), tlv(0xa2, tlv(0x04, mechToken)))),
  );
const negTokenResp = (responseToken: Buffer) => tlv(0xa1, tlv(0x30, tlv(0xa2, tlv(0x04, responseToken))));

export interface SmbProbe {
  dialect: string;
  /** The NEGOTIATE reply's SecurityMode has SIGNING_REQUIRED (0x2). */
  signingRequired: boolean;
  /** What the anonymous session reached, or null when the server refused it at any step. */
  nullSession: {
    /** SessionFlags of the SESSION_SETUP reply: 0x2 IS_NULL, 0x1 IS_GUEST (Samba sets neither). */
    sessionFlags: number;
    treePath: string;
    /** The shares NetrShareEnum listed and what the session could open, or why listing failed. */
    shares: ShareListing;
  } | null;
  /**
   * The common share names the anonymous session tried beyond the list (all of them when IPC$ or the list
   * was refused), or null when the server refused the anonymous session itself.
   */
  hiddenShares: HiddenShares | null;
}

const dialectName = (revision: number) =>
  `${revision >> 8}.${(revision & 0xff).toString(16).padStart(2, '0')}`;

/** Negotiates and tries the null session; null when the server did not negotiate SMB2 at all. */
export function smbNullSession(
  address: string,
  port: number,
  host: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SmbProbe | null> {
  if (signal?.aborted) {
    return Promise.resolve(null);
  }
  const socket = net.connect({ host: address, port });
  socket.on('error', () => undefined);
  const smb = new Smb2Connection(socket);
  const stop = () => socket.destroy();
  signal?.addEventListener('abort', stop, { once: true });
  let deadline = setTimeout(stop, timeoutMs);
  const restartDeadline = () => {
    clearTimeout(deadline);
    deadline = setTimeout(stop, timeoutMs);
  };
  type Anonymous = Pick<SmbProbe, 'nullSession' | 'hiddenShares'>;
  const refused: Anonymous = { nullSession: null, hiddenShares: null };
  const anonymousSession = async (): Promise<Anonymous> => {
    const first = await smb.request(Command.sessionSetup, sessionSetupBody(negTokenInit(ntlmNegotiate())));
    const challengeAt = first?.body.indexOf('NTLMSSP\0\x02\0\0\0', 0, 'latin1') ?? -1;
    if (
      first?.status !== STATUS_MORE_PROCESSING_REQUIRED ||
      challengeAt < 0 ||
      challengeAt + 24 > first.body.length
    ) {
      return refused;
    }
    const challengeFlags = first.body.readUInt32LE(challengeAt + 20);
    const token = negTokenResp(ntlmAnonymousAuthenticate(challengeFlags));
    const second = await smb.request(Command.sessionSetup, sessionSetupBody(token));
    if (second?.status !== STATUS_SUCCESS || second.body.length < 4) {
      return refused;
    }
    const treePath = `\\\\${host}\\IPC$`;
    const ipc = await treeConnect(smb, treePath);
    let nullSession: SmbProbe['nullSession'] = null;
    if (typeof ipc !== 'number') {
      // Listing the shares gets a time budget of its own: the session is proven whatever happens next.
      restartDeadline();
      const shares = await anonymousShares(smb, ipc.treeId, host);
      await treeDisconnect(smb, ipc.treeId);
      nullSession = { sessionFlags: second.body.readUInt16LE(2), treePath, shares };
    }
    // And so does trying the names the list did not hold (a server refusing IPC$ may still share to guests).
    restartDeadline();
    const listing = nullSession?.shares;
    const listed = listing && !('error' in listing) ? listing.shares.map((share) => share.name) : null;
    const hidden = await hiddenShares(smb, host, listed);
    await logoff(smb);
    return { nullSession, hiddenShares: hidden };
  };
  const conversation = async (): Promise<SmbProbe | null> => {
    const negotiated = await smb.request(Command.negotiate, negotiateBody());
    if (negotiated?.status !== STATUS_SUCCESS || negotiated.body.length < 6) {
      return null;
    }
    return {
      dialect: dialectName(negotiated.body.readUInt16LE(4)),
      signingRequired: (negotiated.body.readUInt16LE(2) & 0x2) !== 0,
      ...(await anonymousSession()),
    };
  };
  return conversation().finally(() => {
    clearTimeout(deadline);
    signal?.removeEventListener('abort', stop);
    socket.destroy();
  });
}
