// SMB2 framing ([MS-SMB2] §2.2.1) over Direct TCP (a 4-byte length, RFC 1002 style) and one conversation
// that sends a request and awaits its reply, one at a time. Everything the server sends is bounded: a
// frame larger than maxFrame or a reply that is not SMB2 ends the conversation instead of growing memory.
import type net from 'node:net';

export const STATUS_SUCCESS = 0;
export const STATUS_PENDING = 0x103;
export const STATUS_BUFFER_OVERFLOW = 0x80000005;
export const STATUS_NO_MORE_FILES = 0x80000006;
export const STATUS_MORE_PROCESSING_REQUIRED = 0xc0000016;

/** An NTSTATUS as Windows and Samba print it: 0xc0000022. */
export const ntStatus = (status: number) => `0x${(status >>> 0).toString(16).padStart(8, '0')}`;

export const Command = {
  negotiate: 0,
  sessionSetup: 1,
  logoff: 2,
  treeConnect: 3,
  treeDisconnect: 4,
  create: 5,
  close: 6,
  read: 8,
  ioctl: 11,
  queryDirectory: 14,
} as const;

/** Our requests ask for at most 64 KiB of output; a frame beyond this is not an answer to them. */
const maxFrame = 1 << 20;

export interface Smb2Reply {
  status: number;
  command: number;
  treeId: number;
  sessionId: Buffer;
  body: Buffer;
}

function header(command: number, messageId: number, sessionId: Buffer, treeId: number): Buffer {
  const h = Buffer.alloc(64);
  h.write('\xfeSMB', 0, 'latin1');
  h.writeUInt16LE(64, 4);
  h.writeUInt16LE(1, 6); // credit charge: no request of ours carries or asks more than 64 KiB
  h.writeUInt16LE(command, 12);
  h.writeUInt16LE(31, 14); // credits requested
  h.writeBigUInt64LE(BigInt(messageId), 24);
  h.writeUInt32LE(treeId, 36);
  sessionId.copy(h, 40);
  return h;
}

export function frame(smb: Buffer): Buffer {
  const netbios = Buffer.alloc(4);
  netbios.writeUInt32BE(smb.length); // top byte 0: a session message
  return Buffer.concat([netbios, smb]);
}

/** One SMB2 conversation over a socket: message ids in order, the session id once the server gives one. */
export class Smb2Connection {
  sessionId = Buffer.alloc(8);
  private messageId = 0;
  private expected = -1;
  private buffer = Buffer.alloc(0);
  private waiting: ((reply: Smb2Reply | null) => void) | null = null;
  private closed = false;

  constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      // Guard: a server that floods us is cut off rather than buffered.
      if (this.buffer.length > maxFrame + 4) {
        socket.destroy();
        return;
      }
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

  /** Sends one command with its body; null when the connection ended or the answer was not SMB2. */
  request(command: number, body: Buffer, treeId = 0): Promise<Smb2Reply | null> {
    return new Promise((resolve) => {
      // Guard: a closed connection (refused, timed out, stopped) answers nothing, at once.
      if (this.closed) {
        resolve(null);
        return;
      }
      this.expected = this.messageId++;
      this.waiting = resolve;
      this.socket.write(frame(Buffer.concat([header(command, this.expected, this.sessionId, treeId), body])));
      this.deliver();
    });
  }

  private deliver(): void {
    while (this.waiting && this.buffer.length >= 4) {
      const length = this.buffer.readUInt32BE(0) & 0xffffff;
      if (length > maxFrame) {
        this.socket.destroy();
        return;
      }
      if (this.buffer.length < 4 + length) {
        return;
      }
      const smb = this.buffer.subarray(4, 4 + length);
      this.buffer = this.buffer.subarray(4 + length);
      // Guard: only an SMB2 header is an answer; anything else ends the conversation.
      if (smb.length < 64 || smb.toString('latin1', 0, 4) !== '\xfeSMB') {
        this.finish(null);
        return;
      }
      const status = smb.readUInt32LE(8);
      // An interim STATUS_PENDING reply is followed by the real one; a reply to another message id (an
      // unsolicited oplock break) is not ours.
      if (status === STATUS_PENDING || smb.readBigUInt64LE(24) !== BigInt(this.expected)) {
        continue;
      }
      const sessionId = Buffer.from(smb.subarray(40, 48));
      if (!sessionId.equals(Buffer.alloc(8))) {
        this.sessionId = sessionId;
      }
      this.finish({
        status,
        command: smb.readUInt16LE(12),
        treeId: smb.readUInt32LE(36),
        sessionId,
        body: smb.subarray(64),
      });
    }
  }

  private finish(reply: Smb2Reply | null): void {
    const resolve = this.waiting;
    this.waiting = null;
    resolve?.(reply);
  }
}
