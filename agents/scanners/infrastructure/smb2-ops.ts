// The SMB2 requests a null session needs after SESSION_SETUP ([MS-SMB2] §2.2.9 to §2.2.34), each a
// body builder and a bounds-checked reader of its reply. Offsets in requests count from the SMB2 header.
import type { Smb2Connection, Smb2Reply } from './smb2-wire.ts';
import { Command, STATUS_BUFFER_OVERFLOW, STATUS_SUCCESS } from './smb2-wire.ts';

/** The most output any one request of ours asks for: one credit's worth. */
export const maxOutput = 65536;

const FSCTL_PIPE_TRANSCEIVE = 0x0011c017;
/** The class smbclient and Windows list with; impacket's FileNamesInformation chains no entries. */
const FILE_ID_BOTH_DIRECTORY_INFORMATION = 0x25;
/** In each such entry: FileNameLength's offset, and FileName's ([MS-FSCC] §2.4.17). */
const nameLengthAt = 60;
const nameAt = 104;

/** A body whose variable part starts right after its fixed part (at 64 + fixed from the header). */
function body(fixed: number, structureSize: number, tail: Buffer): Buffer {
  const b = Buffer.alloc(fixed + Math.max(tail.length, 1));
  b.writeUInt16LE(structureSize, 0);
  tail.copy(b, fixed);
  return b;
}

/** The slice of a reply body at a header-relative offset, or null when it lies outside the body. */
function slice(reply: Smb2Reply, offset: number, length: number): Buffer | null {
  const start = offset - 64;
  return start >= 0 && length >= 0 && start + length <= reply.body.length
    ? reply.body.subarray(start, start + length)
    : null;
}

export interface TreeConnected {
  treeId: number;
  /** 1 disk, 2 named pipe, 3 printer. */
  shareType: number;
  /** The access mask the server grants this session on the share root ([MS-SMB2] §2.2.10). */
  maximalAccess: number;
}

export async function treeConnect(smb: Smb2Connection, path: string): Promise<TreeConnected | number> {
  const name = Buffer.from(path, 'utf16le');
  const b = body(8, 9, name);
  b.writeUInt16LE(64 + 8, 4);
  b.writeUInt16LE(name.length, 6);
  const reply = await smb.request(Command.treeConnect, b.subarray(0, 8 + name.length));
  if (!reply) {
    return -1;
  }
  if (reply.status !== STATUS_SUCCESS || reply.body.length < 16) {
    return reply.status;
  }
  return { treeId: reply.treeId, shareType: reply.body[2]!, maximalAccess: reply.body.readUInt32LE(12) };
}

/** Opens a file, pipe or directory for reading only (FILE_OPEN: never creates); its FileId, or the status. */
export async function open(
  smb: Smb2Connection,
  treeId: number,
  name: string,
  access: number,
  createOptions: number,
): Promise<Buffer | number> {
  const path = Buffer.from(name, 'utf16le');
  const b = body(56, 57, path);
  b.writeUInt32LE(2, 4); // impersonation level: Impersonation
  b.writeUInt32LE(access, 24);
  b.writeUInt32LE(0x7, 32); // share read, write, delete: never lock others out
  b.writeUInt32LE(1, 36); // FILE_OPEN
  b.writeUInt32LE(createOptions, 40);
  b.writeUInt16LE(64 + 56, 44);
  b.writeUInt16LE(path.length, 46);
  const reply = await smb.request(Command.create, b, treeId);
  if (!reply) {
    return -1;
  }
  return reply.status === STATUS_SUCCESS && reply.body.length >= 80
    ? Buffer.from(reply.body.subarray(64, 80))
    : reply.status;
}

export async function close(smb: Smb2Connection, treeId: number, fileId: Buffer): Promise<void> {
  const b = Buffer.alloc(24);
  b.writeUInt16LE(24, 0);
  fileId.copy(b, 8);
  await smb.request(Command.close, b, treeId);
}

export interface Chunk {
  data: Buffer;
  /** The server has more of this pipe message for a READ (STATUS_BUFFER_OVERFLOW). */
  more: boolean;
}

const chunk = (reply: Smb2Reply | null, offsetAt: number, lengthAt: number, wide: boolean): Chunk | null => {
  if (!reply || (reply.status !== STATUS_SUCCESS && reply.status !== STATUS_BUFFER_OVERFLOW)) {
    return null;
  }
  if (reply.body.length < lengthAt + 4) {
    return null;
  }
  const offset = wide ? reply.body.readUInt32LE(offsetAt) : reply.body[offsetAt]!;
  const data = slice(reply, offset, reply.body.readUInt32LE(lengthAt));
  return data ? { data, more: reply.status === STATUS_BUFFER_OVERFLOW } : null;
};

/** Writes one message to a named pipe and reads the first part of its answer (FSCTL_PIPE_TRANSCEIVE). */
export async function transceive(
  smb: Smb2Connection,
  treeId: number,
  fileId: Buffer,
  input: Buffer,
  output = maxOutput,
): Promise<Chunk | null> {
  const b = body(56, 57, input);
  b.writeUInt32LE(FSCTL_PIPE_TRANSCEIVE, 4);
  fileId.copy(b, 8);
  b.writeUInt32LE(64 + 56, 24);
  b.writeUInt32LE(input.length, 28);
  b.writeUInt32LE(output, 44);
  b.writeUInt32LE(1, 48); // SMB2_0_IOCTL_IS_FSCTL
  return chunk(await smb.request(Command.ioctl, b, treeId), 32, 36, true);
}

export async function read(
  smb: Smb2Connection,
  treeId: number,
  fileId: Buffer,
  length = maxOutput,
): Promise<Chunk | null> {
  const b = Buffer.alloc(49);
  b.writeUInt16LE(49, 0);
  b.writeUInt8(0x50, 2);
  b.writeUInt32LE(length, 4);
  fileId.copy(b, 16);
  return chunk(await smb.request(Command.read, b, treeId), 2, 4, false);
}

/** One QUERY_DIRECTORY of "*": how many entries besides "." and "..", or null when refused. */
export async function countEntries(
  smb: Smb2Connection,
  treeId: number,
  fileId: Buffer,
  restart: boolean,
): Promise<number | null> {
  const pattern = Buffer.from('*', 'utf16le');
  const b = body(32, 33, pattern);
  b.writeUInt8(FILE_ID_BOTH_DIRECTORY_INFORMATION, 2);
  b.writeUInt8(restart ? 0x01 : 0, 3); // SMB2_RESTART_SCANS
  fileId.copy(b, 8);
  b.writeUInt16LE(64 + 32, 24);
  b.writeUInt16LE(pattern.length, 26);
  b.writeUInt32LE(maxOutput, 28);
  const reply = await smb.request(Command.queryDirectory, b, treeId);
  const data = chunk(reply, 2, 4, false)?.data;
  if (!data || reply?.status !== STATUS_SUCCESS) {
    return null;
  }
  // Entries chained by NextEntryOffset; only the name is read, to leave out "." and "..".
  let count = 0;
  for (let at = 0; at + 12 <= data.length;) {
    const next = data.readUInt32LE(at);
    const length = data.readUInt32LE(at + nameLengthAt);
    if (at + nameAt + length > data.length) {
      break;
    }
    const name = data.toString('utf16le', at + nameAt, at + nameAt + length);
    if (name !== '.' && name !== '..') {
      count++;
    }
    // Guard: entries move forward, 8-aligned; anything else ends the list (a loop or a garbled reply).
    if (next === 0 || next < nameAt || next % 8 !== 0) {
      break;
    }
    at += next;
  }
  return count;
}

export async function treeDisconnect(smb: Smb2Connection, treeId: number): Promise<void> {
  await smb.request(Command.treeDisconnect, Buffer.from([4, 0, 0, 0]), treeId);
}

export async function logoff(smb: Smb2Connection): Promise<void> {
  await smb.request(Command.logoff, Buffer.from([4, 0, 0, 0]));
}
