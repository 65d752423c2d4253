// The clear-text part of the SSH transport (RFC 4253 §4.2, §6): the identification line, then binary
// packets without encryption or MAC until NEWKEYS. The scanner never gets further than the key
// exchange's first messages, so this is all of SSH it writes by hand.
import { randomBytes } from 'node:crypto';

/**
 * The largest packet read: OpenSSH's own limit (PACKET_MAX_SIZE), beyond which every OpenSSH client drops
 * the connection. RFC 4253 §6.1 asks implementations for 35,000 bytes and lets them accept more, so a
 * server may send a KEXINIT between the two that OpenSSH clients still negotiate from.
 */
export const maxPacket = 256 * 1024;

export function sshString(data: Buffer | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

export const nameList = (names: string[]) => sshString(names.join(','));

export function uint32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
}

/** An unencrypted binary packet: length, padding length, payload, 4 to 11 bytes of random padding. */
export function binaryPacket(payload: Buffer): Buffer {
  const fill = 8 - ((payload.length + 5) % 8);
  const pad = fill < 4 ? fill + 8 : fill;
  const header = Buffer.alloc(5);
  header.writeUInt32BE(1 + payload.length + pad);
  header[4] = pad;
  return Buffer.concat([header, payload, randomBytes(pad)]);
}

/** Where the binary packets start: after the server's identification line, or -1 before it is complete. */
export function afterIdentification(transcript: Buffer): number {
  const text = transcript.toString('latin1');
  // Lines before the identification are allowed (RFC 4253 §4.2); ours is the one starting "SSH-".
  const ident = /^SSH-[^\r\n]*\r?\n/m.exec(text);
  return ident ? ident.index + ident[0].length : -1;
}

/**
 * The payloads of the complete packets in `transcript` after the identification line, in order; a
 * trailing partial packet is left out. Null when a length is impossible (not SSH, or corrupt).
 */
export function readPayloads(transcript: Buffer): Buffer[] | null {
  let at = afterIdentification(transcript);
  if (at < 0) {
    return null;
  }
  const payloads: Buffer[] = [];
  while (transcript.length >= at + 5) {
    const packetLength = transcript.readUInt32BE(at);
    const padding = transcript[at + 4]!;
    // Guard: a length that cannot hold its padding, or beyond the RFC's limit, is not an SSH packet.
    if (packetLength < 1 + padding + 1 || packetLength > maxPacket || padding < 4) {
      return null;
    }
    if (transcript.length < at + 4 + packetLength) {
      break;
    }
    payloads.push(transcript.subarray(at + 5, at + 4 + packetLength - padding));
    at += 4 + packetLength;
  }
  return payloads;
}

/** The first binary packet after the identification line, whole or as far as it arrived. */
export interface FirstPacket {
  /** The payload, or as much of it as was read. */
  payload: Buffer;
  /** The packet_length the server announced. */
  announced: number;
  /** The whole packet was read (and it is within maxPacket). */
  complete: boolean;
}

/**
 * The first packet of `transcript`, complete or not: a packet the server never finished sending, or one
 * larger than we read, still shows its first lists. Null before the packet's header, or when the header
 * is impossible.
 */
export function firstPacket(transcript: Buffer): FirstPacket | null {
  const at = afterIdentification(transcript);
  if (at < 0 || transcript.length < at + 5) {
    return null;
  }
  const announced = transcript.readUInt32BE(at);
  const padding = transcript[at + 4]!;
  if (announced < 1 + padding + 1 || padding < 4) {
    return null;
  }
  const complete = announced <= maxPacket && transcript.length >= at + 4 + announced;
  const end = complete ? at + 4 + announced - padding : Math.min(transcript.length, at + 4 + maxPacket);
  return { payload: transcript.subarray(at + 5, end), announced, complete };
}

/** Reads SSH data types (RFC 4251 §5) from a payload; every read past the end throws. */
export class SshReader {
  private at = 0;
  constructor(private readonly data: Buffer) {}

  byte(): number {
    this.need(1);
    return this.data[this.at++]!;
  }

  uint32(): number {
    this.need(4);
    const value = this.data.readUInt32BE(this.at);
    this.at += 4;
    return value;
  }

  bytes(): Buffer {
    const length = this.uint32();
    this.need(length);
    const out = this.data.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }

  skip(count: number): void {
    this.need(count);
    this.at += count;
  }

  private need(count: number): void {
    if (this.at + count > this.data.length) {
      throw new RangeError('SSH message truncated');
    }
  }
}

/** Bits of an mpint (two's complement, big-endian, a leading zero byte when the top bit is set). */
export function mpintBits(value: Buffer): number {
  let start = 0;
  while (start < value.length && value[start] === 0) {
    start++;
  }
  if (start === value.length) {
    return 0;
  }
  return (value.length - start - 1) * 8 + (32 - Math.clz32(value[start]!));
}
