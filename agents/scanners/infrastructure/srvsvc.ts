// NetrShareEnum at level 1 ([MS-SRVS] §3.1.4.8, opnum 15) in NDR (C706 §14): the request stub, and a
// reader of the answer that checks every count and pointer against the bytes received, so a hostile
// server gets an error back, never a crash, a huge allocation or a loop.
import type { Syntax } from './dcerpc.ts';

export const srvsvcSyntax: Syntax = { uuid: '4b324fc8-1670-01d3-1278-5a47bf6ee188', major: 3, minor: 0 };
export const NETR_SHARE_ENUM = 15;

/** At most this many shares are read from one answer (Windows servers rarely have more than a few dozen). */
const maxShares = 1000;
/** A share name is at most 80 characters, a remark 256 ([MS-SRVS] §2.2.4.23); more is not a share list. */
const maxChars = 1024;

export interface ShareInfo {
  name: string;
  /** shi1_type: 0 disk, 1 print queue, 2 device, 3 IPC, with 0x80000000 for special (administrative) shares. */
  type: number;
  remark: string;
}

/** A conformant varying wide string, NUL included ([MS-DTYP] §2.2.58). */
function wideString(value: string): Buffer {
  const chars = Buffer.from(`${value}\0`, 'utf16le');
  const head = Buffer.alloc(12);
  head.writeUInt32LE(chars.length / 2, 0);
  head.writeUInt32LE(chars.length / 2, 8);
  return Buffer.concat([head, chars, Buffer.alloc((4 - (chars.length % 4)) % 4)]);
}

const u32 = (...values: number[]) => {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32LE(v >>> 0, i * 4));
  return b;
};

/** NetrShareEnum(ServerName, InfoStruct{Level 1, empty container}, PreferedMaximumLength, ResumeHandle 0). */
export function shareEnumRequest(server: string): Buffer {
  return Buffer.concat([
    u32(0x00020000), // ServerName: a unique pointer...
    wideString(`\\\\${server}`), // ...to \\server
    u32(1, 1, 0x00020004), // InfoStruct: Level 1, union arm 1, pointer to the container
    u32(0, 0), // container: EntriesRead 0, Buffer null
    u32(0xffffffff), // PreferedMaximumLength: everything in one answer
    u32(0x00020008, 0), // ResumeHandle: a pointer to 0
  ]);
}

class NdrError extends Error {}

/** NDR reading with every access checked; alignment counts from the start of the stub. */
class NdrReader {
  private at = 0;
  constructor(private readonly data: Buffer) {}

  u32(): number {
    this.at = (this.at + 3) & ~3;
    if (this.at + 4 > this.data.length) {
      throw new NdrError('answer ends early');
    }
    const value = this.data.readUInt32LE(this.at);
    this.at += 4;
    return value;
  }

  wideString(): string {
    const max = this.u32();
    const offset = this.u32();
    const actual = this.u32();
    if (offset !== 0 || actual > max || actual > maxChars || this.at + actual * 2 > this.data.length) {
      throw new NdrError('malformed string');
    }
    const text = this.data.toString('utf16le', this.at, this.at + actual * 2);
    this.at += actual * 2;
    return text.replace(/\0+$/, '');
  }
}

export type ShareEnum = { shares: ShareInfo[]; total: number; status: number } | { error: string };

/** Reads a NetrShareEnum answer stub. status is the WERROR it returned (0 success, 234 more data). */
export function parseShareEnum(stub: Buffer): ShareEnum {
  const ndr = new NdrReader(stub);
  try {
    const level = ndr.u32();
    const arm = ndr.u32();
    if (level !== 1 || arm !== 1) {
      return { error: `answered level ${level}, not 1` };
    }
    const shares: ShareInfo[] = [];
    if (ndr.u32() !== 0) {
      const count = ndr.u32();
      const array = ndr.u32();
      if (count > maxShares) {
        return { error: `claims ${count} shares` };
      }
      if (array !== 0) {
        if (ndr.u32() !== count) {
          return { error: 'share array size differs from its count' };
        }
        const pointers = Array.from({ length: count }, () => ({
          name: ndr.u32(),
          type: ndr.u32(),
          remark: ndr.u32(),
        }));
        for (const p of pointers) {
          const name = p.name ? ndr.wideString() : '';
          const remark = p.remark ? ndr.wideString() : '';
          shares.push({ name, type: p.type, remark });
        }
      }
    }
    const total = ndr.u32();
    if (ndr.u32() !== 0) {
      ndr.u32(); // the resume handle
    }
    return { shares, total, status: ndr.u32() };
  } catch (error) {
    if (error instanceof NdrError) {
      return { error: error.message };
    }
    throw error;
  }
}

/**
 * A disk share other than the administrative ones (ADMIN$, C$: the special bit), print$ and IPC$ by name
 * too (impacket's smbserver lists IPC$ as a disk share).
 */
export const isDiskShare = (share: ShareInfo) =>
  (share.type & 0x0fffffff) === 0 &&
  (share.type & 0x80000000) === 0 &&
  !['ipc$', 'print$'].includes(share.name.toLowerCase());
