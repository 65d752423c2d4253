// The SMB findings of one port: exposure, signing, the null session with the shares it lists, and each
// disk share that session can open and list (smb-session.ts, smb-shares.ts).
import type { Finding } from '../../../shared/findings.ts';
import type { CheckContext } from './check-context.ts';
import type { ServiceInfo } from './identify.ts';
import { slowServiceMs } from './identify.ts';
import { infrastructureFinding } from './rules.ts';
import type { HiddenShares } from './smb-hidden-shares.ts';
import type { ShareAccess, ShareListing } from './smb-shares.ts';
import type { SmbProbe } from './smb-session.ts';
import { smbNullSession } from './smb-session.ts';
import { ntStatus } from './smb2-wire.ts';

type NullSession = NonNullable<SmbProbe['nullSession']>;

/** Share names come from the server: printable, and no longer than a share name may be. */
const printable = (name: string) => name.replace(/\p{Cc}/gu, '?').slice(0, 80);
const typeName = (type: number) => ['disk', 'printer', 'device', 'IPC'][type & 0xff] ?? `type ${type & 0xff}`;
const names = (count: number, atLeast: boolean) =>
  `${atLeast ? 'at least ' : ''}${count} name${count === 1 ? '' : 's'}`;

/**
 * What the null session's evidence says about the shares, most telling first: evidence is cut at 500
 * characters, so the full name list comes last.
 */
function listingEvidence(listing: ShareListing): string {
  if ('error' in listing) {
    return `; listing the shares failed: ${listing.error}`;
  }
  const parts = [`NetrShareEnum over \\PIPE\\srvsvc listed ${listing.shares.length} shares`];
  const listed = listing.tried.filter((s) => s.entries !== null);
  const unlistable = listing.tried.filter((s) => s.refused === null && s.entries === null);
  const refused = listing.tried.filter((s) => s.refused !== null);
  if (listed.length) {
    const each = listed.map((s) => `${printable(s.name)} (${names(s.entries ?? 0, s.atLeast)})`);
    parts.push(`root listed anonymously: ${each.join(', ')}`);
  }
  if (unlistable.length) {
    parts.push(`connected, root listing refused: ${unlistable.map((s) => printable(s.name)).join(', ')}`);
  }
  if (refused.length) {
    const statuses = [
      ...new Set(refused.map((s) => (s.refused === -1 ? 'no answer' : ntStatus(s.refused ?? 0)))),
    ];
    parts.push(`TREE_CONNECT refused: ${refused.length} (${statuses.join(', ')})`);
  }
  if (listing.untried.length) {
    parts.push(`not tried: ${listing.untried.length} (at most ${listing.tried.length} are)`);
  }
  parts.push(`listed: ${listing.shares.map((s) => `${printable(s.name)} (${typeName(s.type)})`).join(', ')}`);
  return `; ${parts.join('; ')}`;
}

export async function smbFindings(ctx: CheckContext, service: ServiceInfo): Promise<Finding[]> {
  const smb = await smbNullSession(ctx.address, ctx.port, ctx.host, slowServiceMs, ctx.signal);
  const findings = [
    infrastructureFinding('infra.smb.exposed', { location: ctx.location, evidence: service.banner }),
  ];
  if (smb && !smb.signingRequired) {
    findings.push(
      infrastructureFinding('infra.smb.signing-not-required', {
        location: ctx.location,
        evidence: `SMB ${smb.dialect} NEGOTIATE reply: SecurityMode has signing enabled but not required`,
      }),
    );
  }
  if (smb?.nullSession) {
    findings.push(...listedShareFindings(ctx, smb.dialect, smb.nullSession));
  }
  if (smb?.hiddenShares) {
    findings.push(...hiddenShareFindings(ctx, smb.dialect, smb.hiddenShares, smb.nullSession));
  }
  return findings;
}

function listedShareFindings(ctx: CheckContext, dialect: string, session: NullSession): Finding[] {
  const { sessionFlags, treePath, shares } = session;
  const findings = [
    infrastructureFinding('infra.smb.null-session', {
      location: ctx.location,
      evidence: `SMB ${dialect}: an anonymous NTLM session setup (no user name, no password) was accepted (session flags 0x${sessionFlags.toString(16).padStart(4, '0')}) and TREE_CONNECT to ${treePath} succeeded${listingEvidence(shares)}`,
    }),
  ];
  // Only a root the session could list is proven readable; a share it merely connects to is not.
  for (const share of 'error' in shares ? [] : shares.tried) {
    if (share.entries === null) {
      continue;
    }
    const name = printable(share.name);
    findings.push(
      infrastructureFinding('infra.smb.anonymous-share', {
        location: `${ctx.location}/share/${name}`,
        evidence: `SMB ${dialect}: the anonymous session (no user name, no password) found \\\\${ctx.host}\\${name} through SRVSVC NetrShareEnum, TREE_CONNECT to it succeeded and QUERY_DIRECTORY of its root answered ${names(share.entries, share.atLeast)} (counted only; no file was opened)${writable(share)}`,
      }),
    );
  }
  return findings;
}

const writable = (share: ShareAccess) =>
  share.writable
    ? '; the share also grants this session write access (TREE_CONNECT MaximalAccess; writing was not tried)'
    : '';

/** Why the share list did not hold a share the session found by its name. */
function unlistedBecause(session: NullSession | null): string {
  if (!session) {
    return 'no share list: the anonymous TREE_CONNECT to IPC$ was refused';
  }
  return 'error' in session.shares
    ? `no share list: ${session.shares.error}`
    : `not among the ${session.shares.shares.length} shares NetrShareEnum listed`;
}

function hiddenShareFindings(
  ctx: CheckContext,
  dialect: string,
  hidden: HiddenShares,
  session: NullSession | null,
): Finding[] {
  // The same proof as for a listed share: a root the session could list.
  return hidden.connected
    .filter((share) => share.entries !== null)
    .map((share) =>
      infrastructureFinding('infra.smb.anonymous-share', {
        location: `${ctx.location}/share/${share.name}`,
        evidence: `SMB ${dialect}: the anonymous session (no user name, no password) found \\\\${ctx.host}\\${share.name} by trying ${hidden.tried.length} common share names (${unlistedBecause(session)}); TREE_CONNECT to it succeeded and QUERY_DIRECTORY of its root answered ${names(share.entries ?? 0, share.atLeast)} (counted only; no file was opened)${writable(share)}`,
      }),
    );
}
