// What a null session sees, the way `smbclient -L -N` and nmap's smb-enum-shares find it: the share
// list from SRVSVC NetrShareEnum over \PIPE\srvsvc on IPC$, then, for each disk share, whether the
// anonymous session may connect to it and list its root. Only names are counted: no file is opened,
// read or written.
import type { Reassembly } from './dcerpc.ts';
import { bindAccepted, bindRequest, callRequest, reassemble } from './dcerpc.ts';
import { close, countEntries, open, read, transceive, treeConnect, treeDisconnect } from './smb2-ops.ts';
import type { Smb2Connection } from './smb2-wire.ts';
import { ntStatus } from './smb2-wire.ts';
import type { ShareInfo } from './srvsvc.ts';
import { NETR_SHARE_ENUM, isDiskShare, parseShareEnum, shareEnumRequest, srvsvcSyntax } from './srvsvc.ts';

/** Disk shares tried per server; more are named in the evidence as not tried. */
const maxTried = 32;
/** READs after the first part of one RPC answer: 64 × 64 KiB is far beyond any share list. */
const maxReads = 64;
/** QUERY_DIRECTORY rounds per root: enough to count a few thousand names, then "at least". */
const maxListings = 8;

const PIPE_ACCESS = 0x0012019f; // read/write data and attributes, as every RPC client opens a pipe
const DIRECTORY_LIST = 0x00100081; // FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES | SYNCHRONIZE
const FILE_DIRECTORY_FILE = 0x1;
const writeAccess = 0x00000002 | 0x00000004; // FILE_WRITE_DATA, FILE_APPEND_DATA (DELETE and WRITE_DAC come with any share)

export interface ShareAccess {
  name: string;
  /** The NTSTATUS of a refused TREE_CONNECT, or null when the session connected. */
  refused: number | null;
  /** Names in the root besides "." and ".." when listing it succeeded; null when it was refused. */
  entries: number | null;
  /** QUERY_DIRECTORY had still more to give after maxListings rounds. */
  atLeast: boolean;
  /** The share's MaximalAccess grants writing to the anonymous session. */
  writable: boolean;
}

export type ShareListing =
  { shares: ShareInfo[]; tried: ShareAccess[]; untried: string[] } | { error: string };

/** One RPC call on an open pipe: the request out, the whole answer back however many parts it takes. */
async function call(smb: Smb2Connection, treeId: number, pipe: Buffer, pdu: Buffer): Promise<Buffer | null> {
  const first = await transceive(smb, treeId, pipe, pdu);
  if (!first) {
    return null;
  }
  let received = first.data;
  let more = first.more;
  // A BIND_ACK is one PDU; a RESPONSE may come in fragments or outgrow one IOCTL output.
  const complete = () =>
    received[2] === 12
      ? received.length >= 10 && received.length >= received.readUInt16LE(8)
      : reassemble(received, pdu.readUInt32LE(12)).state !== 'more';
  for (let reads = 0; (more || !complete()) && reads < maxReads; reads++) {
    const next = await read(smb, treeId, pipe);
    if (!next || next.data.length === 0) {
      return null;
    }
    received = Buffer.concat([received, next.data]);
    more = next.more;
  }
  return received;
}

async function enumerate(smb: Smb2Connection, ipc: number, host: string): Promise<ShareInfo[] | string> {
  const pipe = await open(smb, ipc, 'srvsvc', PIPE_ACCESS, 0);
  if (typeof pipe === 'number') {
    return pipe === -1
      ? 'no answer to opening \\PIPE\\srvsvc'
      : `opening \\PIPE\\srvsvc was refused (${ntStatus(pipe)})`;
  }
  try {
    const ack = await call(smb, ipc, pipe, bindRequest(1, srvsvcSyntax));
    if (!ack || !bindAccepted(ack)) {
      return 'the SRVSVC bind was refused';
    }
    const answer = await call(smb, ipc, pipe, callRequest(2, NETR_SHARE_ENUM, shareEnumRequest(host)));
    const result: Reassembly = answer ? reassemble(answer, 2) : { state: 'bad', why: 'no answer' };
    if (result.state === 'fault') {
      return `NetrShareEnum faulted (${ntStatus(result.status)})`;
    }
    if (result.state !== 'done') {
      return `NetrShareEnum: ${result.state === 'bad' ? result.why : 'answer incomplete'}`;
    }
    const parsed = parseShareEnum(result.stub);
    if ('error' in parsed) {
      return `NetrShareEnum: ${parsed.error}`;
    }
    // WERROR 5 (access denied) with no entries is a refusal; 234 (more data) still lists shares.
    if (parsed.status !== 0 && parsed.shares.length === 0) {
      return `NetrShareEnum answered WERROR ${parsed.status}`;
    }
    return parsed.shares;
  } finally {
    await close(smb, ipc, pipe);
  }
}

export async function tryShare(smb: Smb2Connection, host: string, name: string): Promise<ShareAccess> {
  const tree = await treeConnect(smb, `\\\\${host}\\${name}`);
  if (typeof tree === 'number') {
    return { name, refused: tree, entries: null, atLeast: false, writable: false };
  }
  const access: ShareAccess = {
    name,
    refused: null,
    entries: null,
    atLeast: false,
    writable: (tree.maximalAccess & writeAccess) !== 0,
  };
  const root = await open(smb, tree.treeId, '', DIRECTORY_LIST, FILE_DIRECTORY_FILE);
  if (typeof root !== 'number') {
    const first = await countEntries(smb, tree.treeId, root, true);
    if (first !== null) {
      // Each round continues the listing; STATUS_NO_MORE_FILES (null) ends it.
      let total = first;
      let rounds = 1;
      for (; rounds < maxListings; rounds++) {
        const more = await countEntries(smb, tree.treeId, root, false);
        if (more === null) {
          break;
        }
        total += more;
      }
      access.entries = total;
      access.atLeast = rounds === maxListings;
    }
    await close(smb, tree.treeId, root);
  }
  await treeDisconnect(smb, tree.treeId);
  return access;
}

/** The share list through the IPC$ tree the null session holds, and what it can open of each disk share. */
export async function anonymousShares(smb: Smb2Connection, ipc: number, host: string): Promise<ShareListing> {
  const shares = await enumerate(smb, ipc, host);
  if (typeof shares === 'string') {
    return { error: shares };
  }
  const disks = shares.filter(isDiskShare).map((share) => share.name);
  const tried: ShareAccess[] = [];
  for (const name of disks.slice(0, maxTried)) {
    tried.push(await tryShare(smb, host, name));
  }
  return { shares, tried, untried: disks.slice(maxTried) };
}
