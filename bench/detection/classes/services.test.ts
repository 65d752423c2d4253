// nmap's service scripts and smbclient mapped to our rule ids, on what nmap 7.93 and smbclient 4.17 really
// printed for the services class's fixtures (services.recorded.json): each claim must come from the tool's own words, and a safe twin must
// draw none of the misconfiguration's.
import { describe, expect, it } from 'vitest';

import { parseNmapXml } from '../nmap-scripts.ts';
import { listedRoot, parseShareList, shareAccess, smbclientClaims } from '../smb-references.ts';
import recorded from './services.recorded.json';
import { nmapClaims } from './services.ts';

const claims = (name: keyof typeof recorded.nmap) =>
  nmapClaims({ ports: parseNmapXml(recorded.nmap[name]), ms: 0 })
    .map((c) => `${c.rule_id} ${c.location}`)
    .sort();

describe('nmap service scripts as claims', () => {
  it('anonymous FTP from ftp-anon, but no write claim for a directory that is not world-writable', () => {
    expect(claims('vsftpd-writable')).toEqual(['infra.ftp.anonymous :2321', 'infra.open-port :2321']);
  });

  it('VNC without authentication only when vnc-info lists None', () => {
    expect(claims('vnc-none')).toEqual(['infra.open-port :2342', 'infra.vnc.no-auth :2342']);
    expect(claims('vnc-auth')).toEqual(['infra.open-port :2343', 'infra.vnc.exposed :2343']);
  });

  it("rsh and rexec: tcpwrapped on 514 (nmap's probes come from unreserved ports), only a port-table guess on 512", () => {
    expect(claims('rsh-redone-trusting')).toEqual(['infra.open-port :514']);
    expect(claims('rsh-netkit-trusting')).toEqual(['infra.open-port :514']);
    expect(claims('rexec-netkit')).toEqual(['infra.open-port :512']);
  });

  it('SMB signing from the host script, only when not required', () => {
    expect(claims('samba-null')).toEqual([
      'infra.open-port :445',
      'infra.smb.exposed :445',
      'infra.smb.signing-not-required :445',
    ]);
    expect(claims('samba-restricted')).toEqual(['infra.open-port :445', 'infra.smb.exposed :445']);
  });

  it('empty MariaDB passwords per port, none on the safe twin', () => {
    expect(claims('mariadb-pair')).toEqual([
      'infra.database.exposed :2330',
      'infra.database.exposed :2331',
      'infra.mysql.anonymous :2330',
      'infra.mysql.empty-root-password :2330',
      'infra.open-port :2330',
      'infra.open-port :2331',
    ]);
  });

  it('SMB shares from smb-enum-shares only where it could speak SMB1: Samba with NT1 enabled', () => {
    expect(claims('samba-smb1')).toEqual([
      'infra.open-port :445',
      'infra.smb.anonymous-share :445/share/public',
      'infra.smb.exposed :445',
      'infra.smb.null-session :445',
      'infra.smb.signing-not-required :445',
    ]);
    // Its write claim on the read-only guest share is wrong (not mapped to any rule of ours).
    const host = parseNmapXml(recorded.nmap['samba-smb1']).get('host')?.scripts.get('smb-enum-shares') ?? '';
    expect(shareAccess(host).map((s) => `${s.name} ${s.type} ${s.anonymous}`)).toEqual([
      'IPC$ STYPE_IPC_HIDDEN READ/WRITE',
      'public STYPE_DISKTREE READ/WRITE',
      'staff STYPE_DISKTREE <none>',
    ]);
    expect(claims('samba-smb3')).toEqual(['infra.open-port :445', 'infra.smb.exposed :445']);
  });

  it('shares smb-enum-shares guessed when listing failed, by their name in any case, never IPC$', () => {
    expect(claims('samba-list-refused')).toEqual([
      'infra.open-port :445',
      'infra.smb.anonymous-share :445/share/public',
      'infra.smb.exposed :445',
      'infra.smb.signing-not-required :445',
    ]);
    // SMB1 off: smb-enum-shares cannot speak to the twin at all, so it has nothing to guess there either.
    expect(claims('samba-hidden-login')).toEqual(['infra.open-port :445', 'infra.smb.exposed :445']);
  });
});

describe('smbclient as claims', () => {
  const listed = (name: keyof typeof recorded.smbclient) => parseShareList(recorded.smbclient[name]);

  it('reads the -g share list, and a null session only where IPC$ listed it', () => {
    expect(listed('samba-smb3')).toEqual([
      { type: 'Disk', name: 'scans' },
      { type: 'Disk', name: 'locked' },
      { type: 'IPC', name: 'IPC$' },
    ]);
    const run = (name: keyof typeof recorded.smbclient, readable: string[]) =>
      smbclientClaims({ listed: listed(name), readable, ms: 0 }, 445).map(
        (c) => `${c.rule_id} ${c.location}`,
      );
    expect(run('samba-null', ['public'])).toEqual([
      'infra.smb.null-session :445',
      'infra.smb.anonymous-share :445/share/public',
    ]);
    expect(run('samba-restricted', [])).toEqual([]);
    // No list when IPC$ is refused, and hidden shares never listed: smbclient -L has nothing to try.
    expect(listed('samba-list-refused')).toEqual([]);
    expect(run('samba-hidden-login', [])).toEqual(['infra.smb.null-session :445']);
    // impacket lists IPC$ as a disk share: still the pipe share, not a file share.
    const impacket = smbclientClaims(
      { listed: parseShareList('Disk|IPC$|\nDisk|DATA|\n'), readable: ['DATA'], ms: 0 },
      445,
    );
    expect(impacket.map((c) => `${c.rule_id} ${c.location}`)).toEqual([
      'infra.smb.null-session :445',
      'infra.smb.anonymous-share :445/share/DATA',
    ]);
  });

  it('counts a share as readable only when ls ended with its volume line', () => {
    const ls =
      '  .  D  0  Wed Nov 25 08:56:31 2026\n\n\t\t264212084 blocks of size 1024. 62992652 blocks available\n';
    expect(listedRoot({ code: 0, stdout: ls })).toBe(true);
    expect(listedRoot({ code: 1, stdout: 'NT_STATUS_ACCESS_DENIED listing \\*\n' })).toBe(false);
    expect(listedRoot({ code: 0, stdout: 'tree connect failed: NT_STATUS_BAD_NETWORK_NAME\n' })).toBe(false);
  });

  it('CouchDB open only when couchdb-databases lists databases: not its not_found, not for the admin party it cannot see', () => {
    expect(claims('pouchdb-admin-party')).toEqual([
      'infra.couchdb.unauthenticated :5984',
      'infra.open-port :5984',
    ]);
    expect(claims('pouchdb-admins')).toEqual([
      'infra.couchdb.unauthenticated :5984',
      'infra.open-port :5984',
    ]);
    expect(claims('express-pouchdb-unlisted')).toEqual(['infra.open-port :5984']);
    expect(claims('express-pouchdb-locked')).toEqual(['infra.open-port :5984']);
  });

  it('MongoDB open when mongodb-databases printed the databases with ok = 1', () => {
    expect(claims('congodb-memory')).toEqual([
      'infra.mongodb.unauthenticated :27017',
      'infra.open-port :27017',
    ]);
    expect(claims('congodb-files')).toEqual([
      'infra.mongodb.unauthenticated :27017',
      'infra.open-port :27017',
    ]);
  });
});
