// Shares the list leaves out: Samba's "browseable = no" and Windows' "$" names never appear in
// NetrShareEnum, and nothing is listed at all when the server refuses the anonymous session IPC$ or the
// call. Like nmap's smb-enum-shares when listing fails, the anonymous session tries a short list of
// common names with TREE_CONNECT and, for those it may open, lists the root as for a listed share
// (smb-shares.ts: names counted, nothing opened, nothing written).
import type { ShareAccess } from './smb-shares.ts';
import { tryShare } from './smb-shares.ts';
import { treeConnect, treeDisconnect } from './smb2-ops.ts';
import type { Smb2Connection } from './smb2-wire.ts';

/**
 * Names file servers commonly give shares, from nmap's list (smb.lua share_get_list) and the shares admins
 * hide with a "$" or browseable = no. Not tried: print$ (printer drivers, readable by everyone by design;
 * the listed one is not reported either), ADMIN$ and the drive shares C$... (administrators only), and
 * nmap's single letters.
 */
export const commonShareNames = [
  'backup',
  'backups',
  'backup$',
  'data',
  'data$',
  'share',
  'shared',
  'share$',
  'public',
  'files',
  'users',
  'home',
  'homes',
  'docs',
  'software',
  'transfer',
  'scans',
  'temp',
  'tmp',
  'www',
  'netlogon',
  'sysvol',
] as const;

/** A name no server shares: a server that connects it accepts any name, and a guess proves nothing there. */
export const noSuchShare = 'vigil-scan-no-such-share';

export interface HiddenShares {
  /** The common names tried: those the share list did not hold. */
  tried: string[];
  /** What the anonymous session could do with each name it could connect. */
  connected: ShareAccess[];
  /** The made-up name connected too: the server answers any name, so nothing was tried. */
  acceptsAnyName: boolean;
}

/** Tries the common names the list did not hold (all when nothing could be listed), case-insensitively. */
export async function hiddenShares(
  smb: Smb2Connection,
  host: string,
  listed: string[] | null,
): Promise<HiddenShares> {
  const known = new Set((listed ?? []).map((name) => name.toLowerCase()));
  const names = commonShareNames.filter((name) => !known.has(name));
  const canary = await treeConnect(smb, `\\\\${host}\\${noSuchShare}`);
  if (typeof canary !== 'number') {
    await treeDisconnect(smb, canary.treeId);
    return { tried: [], connected: [], acceptsAnyName: true };
  }
  const tried: string[] = [];
  const connected: ShareAccess[] = [];
  // No answer (-1) means the conversation is over (its deadline, a closed socket): stop there.
  for (const name of canary === -1 ? [] : names) {
    const access = await tryShare(smb, host, name);
    if (access.refused === -1) {
      break;
    }
    tried.push(name);
    if (access.refused === null) {
      connected.push(access);
    }
  }
  return { tried, connected, acceptsAnyName: false };
}
