// An SMB null session, the way Windows clients make one ([MS-SMB2] §3.2.4, [MS-NLMP] §3.2.5.1.2):
// NEGOTIATE (SMB 2.0.2 to 3.0.2), SESSION_SETUP with an anonymous NTLM exchange wrapped in SPNEGO
// (RFC 4178), then TREE_CONNECT to \\host\IPC$. A server that lets the anonymous session reach IPC$
// exposes its RPC services (users, shares, policies) to anyone. No credential is sent, nothing is opened.
import net from 'node:net';

const STATUS_SUCCESS = 0;
const STATUS_MORE_PROCESSING_REQUIRED = 0xc0000016;
const dialects = [0x0202, 0x0210, 0x0300, 0x0302];
const ntlmFlags = 0xa0088205; // UNICODE, REQUEST_TARGET, NTLM, ALWAYS_SIGN, EXTENDED_SESSIONSECURITY, 128, 56
const NTLMSSP_NEGOTIATE_ANONYMOUS = 0x800;

interface Smb2Reply {
  status: number;
  command: number;
  sessionId: Buffer;
  body: Buffer;
}

function header(command: number, messageId: number, sessionId: Buffer, treeId = 0): Buffer {
  const h = Buffer.alloc(64);
  h.write('\xfeSMB', 0, 'latin1');
  h.writeUInt16LE(64, 4);
  h.writeUInt16LE(1, 6); // credit charge
  h.writeUInt16LE(command, 12);
  h.writeUInt16LE(31, 14); // credits requested
  h.writeBigUInt64LE(BigInt(messageId), 24);
  h.writeUInt32LE(treeId, 36);
  sessionId.copy(h, 40);
  return h;
}

const frame = (smb: Buffer) => {
  const netbios = Buffer.alloc(4);
  netbios.writeUInt32BE(smb.length); // top byte 0: a session message
  return Buffer.concat([netbios, smb]);
};

export function negotiateRequest(): Buffer {
  const body = Buffer.alloc(36 + dialects.length * 2);
  body.writeUInt16LE(36, 0);
  body.writeUInt16LE(dialects.length, 2);
  body.writeUInt16LE(1, 4); // signing enabled, not required
  dialects.forEach((dialect, i) => body.writeUInt16LE(dialect, 36 + i * 2));
  return frame(Buffer.concat([header(0, 0, Buffer.alloc(8)), body]));
}

function sessionSetupRequest(messageId: number, sessionId: Buffer, token: Buffer): Buffer {
  const body = Buffer.alloc(24);
  body.writeUInt16LE(25, 0);
  body.writeUInt8(1, 3); // signing enabled
  body.writeUInt16LE(64 + 24, 12);
  body.writeUInt16LE(token.length, 14);
  return frame(Buffer.concat([header(1, messageId, sessionId), body, token]));
}

function treeConnectRequest(messageId: number, sessionId: Buffer, path: string): Buffer {
  const name = Buffer.from(path, 'utf16le');
  const body = Buffer.alloc(8);
  body.writeUInt16LE(9, 0);
  body.writeUInt16LE(64 + 8, 4);
  body.writeUInt16LE(name.length, 6);
  return frame(Buffer.concat([header(3, messageId, sessionId), body, name]));
}

/** DER element with a definite length (X.690 §8.1.3). */
function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const length =
    body.length < 0x80
      ? Buffer.from([body.length])
      : body.length < 0x100
        ? Buffer.from([0x81, body.length])
        : Buffer.from([0x82, body.length >> 8, body.length & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
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
  der(
    0x60,
    der(0x06, spnegoOid),
    der(0xa0, der(0x30, der(0xa0, der(0x30, der(0x06, ntlmOid))), der(0xa2, der(0x04, mechToken)))),
  );
const negTokenResp = (responseToken: Buffer) => der(0xa1, der(0x30, der(0xa2, der(0x04, responseToken))));

/** One SMB2 conversation over a socket: send a request, await its reply, in order. */
class Smb2Connection {
  private buffer = Buffer.alloc(0);
  private waiting: ((reply: Smb2Reply | null) => void) | null = null;
  private closed = false;

  constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.deliver();
    });
    const end = () => {
      this.closed = true;
      this.waiting?.(null);
      this.waiting = null;
    };
    socket.on('close', end);
    socket.on('error', end);
  }

  request(message: Buffer): Promise<Smb2Reply | null> {
    return new Promise((resolve) => {
      // Guard: a closed connection (refused, timed out, stopped) answers nothing, at once.
      if (this.closed) {
        resolve(null);
        return;
      }
      this.waiting = resolve;
      this.socket.write(message);
      this.deliver();
    });
  }

  private deliver(): void {
    if (!this.waiting || this.buffer.length < 4) {
      return;
    }
    const length = this.buffer.readUInt32BE(0) & 0xffffff;
    if (this.buffer.length < 4 + length) {
      return;
    }
    const smb = this.buffer.subarray(4, 4 + length);
    this.buffer = this.buffer.subarray(4 + length);
    const resolve = this.waiting;
    this.waiting = null;
    // Guard: only an SMB2 header is an answer; anything else ends the conversation.
    if (smb.length < 64 || smb.toString('latin1', 0, 4) !== '\xfeSMB') {
      resolve(null);
      return;
    }
    // An interim STATUS_PENDING reply is followed by the real one.
    if (smb.readUInt32LE(8) === 0x103) {
      this.waiting = resolve;
      this.deliver();
      return;
    }
    resolve({
      status: smb.readUInt32LE(8),
      command: smb.readUInt16LE(12),
      sessionId: Buffer.from(smb.subarray(40, 48)),
      body: smb.subarray(64),
    });
  }
}

export interface SmbProbe {
  dialect: string;
  /** The NEGOTIATE reply's SecurityMode has SIGNING_REQUIRED (0x2). */
  signingRequired: boolean;
  /** What the anonymous session reached, or null when the server refused it at any step. */
  nullSession: {
    /** SessionFlags of the SESSION_SETUP reply: 0x2 IS_NULL, 0x1 IS_GUEST (Samba sets neither). */
    sessionFlags: number;
    treePath: string;
  } | null;
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
  const deadline = setTimeout(stop, timeoutMs);
  const anonymousSession = async (): Promise<SmbProbe['nullSession']> => {
    const first = await smb.request(sessionSetupRequest(1, Buffer.alloc(8), negTokenInit(ntlmNegotiate())));
    const challengeAt = first?.body.indexOf('NTLMSSP\0\x02\0\0\0', 0, 'latin1') ?? -1;
    if (first?.status !== STATUS_MORE_PROCESSING_REQUIRED || challengeAt < 0) {
      return null;
    }
    const challengeFlags = first.body.readUInt32LE(challengeAt + 20);
    const token = negTokenResp(ntlmAnonymousAuthenticate(challengeFlags));
    const second = await smb.request(sessionSetupRequest(2, first.sessionId, token));
    if (second?.status !== STATUS_SUCCESS || second.body.length < 4) {
      return null;
    }
    const treePath = `\\\\${host}\\IPC$`;
    const tree = await smb.request(treeConnectRequest(3, second.sessionId, treePath));
    return tree?.status === STATUS_SUCCESS ? { sessionFlags: second.body.readUInt16LE(2), treePath } : null;
  };
  const conversation = async (): Promise<SmbProbe | null> => {
    const negotiated = await smb.request(negotiateRequest());
    if (negotiated?.status !== STATUS_SUCCESS || negotiated.body.length < 6) {
      return null;
    }
    return {
      dialect: dialectName(negotiated.body.readUInt16LE(4)),
      signingRequired: (negotiated.body.readUInt16LE(2) & 0x2) !== 0,
      nullSession: await anonymousSession(),
    };
  };
  return conversation().finally(() => {
    clearTimeout(deadline);
    signal?.removeEventListener('abort', stop);
    socket.destroy();
  });
}
