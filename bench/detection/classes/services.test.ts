// nmap's service scripts mapped to our rule ids, on what nmap 7.93 really printed for the services class's
// fixtures (services.recorded.json): each claim must come from the tool's own words, and a safe twin must
// draw none of the misconfiguration's.
import { describe, expect, it } from 'vitest';

import { parseNmapXml } from '../nmap-scripts.ts';
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
});
