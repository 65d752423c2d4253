// The references for what an anonymous SMB session sees. Samba's own client: `smbclient -L -N -g` lists
// the shares (NetShareEnum through IPC$), then `smbclient //host/share -N -c ls` lists the root of each
// disk share, the same proof our check asks for (ls lists, it never opens a file). And the reader of
// nmap's smb-enum-shares blocks, which the services class maps to claims.
import type { PlantedIssue } from '../../tests/fixtures/planted.ts';
import { runTool } from './tool-process.ts';
import type { ReferenceTool } from './types.ts';

export interface SmbclientRun {
  /** `-L -g` lines: type and name of each listed share. */
  listed: { type: string; name: string }[];
  /** The disk shares whose root `ls` listed. */
  readable: string[];
  ms: number;
}

/** The grepable share list of `smbclient -L -g`: `Disk|public|Public files`, `IPC|IPC$|...`. */
export function parseShareList(stdout: string): SmbclientRun['listed'] {
  return stdout
    .split('\n')
    .map((line) => /^(Disk|IPC|Printer|Device)\|([^|]*)\|/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ type: m[1]!, name: m[2]! }));
}

/** `ls` worked when smbclient exits 0 and printed the volume line that ends every listing. */
export const listedRoot = (run: { code: number | null; stdout: string }) =>
  run.code === 0 && /blocks of size \d+\. \d+ blocks available/.test(run.stdout);

export async function smbclientShares(port: number): Promise<SmbclientRun> {
  const started = performance.now();
  const common = ['-p', String(port), '-N'];
  const list = await runTool('smbclient', ['-L', '//127.0.0.1', '-g', ...common], { timeoutMs: 30_000 });
  const listed = parseShareList(list.stdout);
  const readable: string[] = [];
  // The same shares ours tries: disk shares but IPC$ and print$ (impacket lists IPC$ as a disk share).
  for (const share of listed.filter((s) => s.type === 'Disk' && !/^(ipc|print)\$$/i.test(s.name))) {
    const ls = await runTool('smbclient', [`//127.0.0.1/${share.name}`, '-c', 'ls', ...common], {
      timeoutMs: 30_000,
    });
    if (listedRoot(ls)) {
      readable.push(share.name);
    }
  }
  return { listed, readable, ms: performance.now() - started };
}

/**
 * Our rules from smbclient's words: a share list (read through IPC$, whatever type the server gives it) is
 * a null session; each listed root a readable share.
 */
export function smbclientClaims(run: SmbclientRun, port: number): PlantedIssue[] {
  const claims: PlantedIssue[] = [];
  if (run.listed.some((s) => s.name.toUpperCase() === 'IPC$')) {
    claims.push({ rule_id: 'infra.smb.null-session', location: `:${port}` });
  }
  for (const name of run.readable) {
    claims.push({ rule_id: 'infra.smb.anonymous-share', location: `:${port}/share/${name}` });
  }
  return claims;
}

export function smbclientTool(port: number): ReferenceTool {
  const key = (i: PlantedIssue) => `${i.rule_id} @ ${i.location}`;
  return {
    name: 'smbclient -L -N, then -c ls per disk share',
    command: 'smbclient',
    aptPackage: 'smbclient',
    covers: (issue) =>
      issue.rule_id === 'infra.smb.null-session' || issue.rule_id === 'infra.smb.anonymous-share',
    async run(fixture) {
      const run = await smbclientShares(port);
      const planted = new Set(fixture.planted.map(key));
      const claims = smbclientClaims(run, port);
      return {
        found: claims.filter((c) => planted.has(key(c))),
        falsePositives: claims.filter((c) => !planted.has(key(c))).map(key),
        ms: run.ms,
        note: `listed: ${run.listed.map((s) => s.name).join(', ') || 'nothing'}`,
      };
    },
  };
}

/** The share blocks of smb-enum-shares: `\\host\name:` then indented Type and Anonymous access lines. */
export function shareAccess(output: string): { name: string; type: string; anonymous: string }[] {
  const shares: { name: string; type: string; anonymous: string }[] = [];
  for (const line of output.split('\n')) {
    const share = /^\s*\\\\[^\\]+\\(.+):\s*$/.exec(line);
    const current = shares.at(-1);
    if (share) {
      shares.push({ name: share[1]!, type: '', anonymous: '' });
    } else if (current) {
      current.type = /^\s*Type: (.+?)\s*$/.exec(line)?.[1] ?? current.type;
      current.anonymous = /^\s*Anonymous access: (.+?)\s*$/.exec(line)?.[1] ?? current.anonymous;
    }
  }
  return shares;
}
