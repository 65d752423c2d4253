// Services: our FTP, remote-login (Telnet, rlogin, rsh, rexec), VNC, SMB, SNMP and database checks
// beside nmap's NSE scripts (ftp-anon, ftp-syst, telnet-encryption, vnc-info, realvnc-auth-bypass,
// mysql-empty-password, mysql-info, redis-info, memcached-info, snmp-info, snmp-sysdescr, smb-protocols,
// smb2-security-mode, smb-security-mode, smb-enum-shares, and -sV for the service names) and, on Samba,
// smbclient -L -N with ls per disk share, on real servers from Debian, each misconfigured beside its safe
// twin. pgsql-brute, rexec-brute and rlogin-brute are left out on purpose: guessing passwords is not
// harmless; nmap has no script that tests rsh's host trust (root's or hosts.equiv's). Shares hidden from
// the list: nmap guesses common names only when listing fails, smbclient -L never.
// MongoDB and CouchDB have no Debian package: their fixtures are third-party servers from npm (PouchDB
// Server, CongoDB), beside nmap's couchdb-databases, couchdb-stats, mongodb-databases and mongodb-info;
// Elasticsearch has no installable server at all (see docs/scanners/proof.md §2).
import { runScan } from '../../../agents/scanners/run-scan.ts';
import { startVsftpd } from '../../../tests/fixtures/services/apt-servers.ts';
import {
  startMariadbPair,
  startMemcachedSafe,
  startPostgresPair,
  startRedisSafe,
} from '../../../tests/fixtures/databases/database-servers.ts';
import { startCongodbFiles, startCongodbMemory } from '../../../tests/fixtures/databases/congodb-servers.ts';
import {
  startExpressPouchdbLocked,
  startExpressPouchdbUnlisted,
  startPouchdbAdminParty,
  startPouchdbListingAdmins,
} from '../../../tests/fixtures/databases/couchdb-servers.ts';
import { startImpacketSmb } from '../../../tests/fixtures/smb/impacket-smb.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import { startRealServices } from '../../../tests/fixtures/real-services.ts';
import {
  startSambaHiddenLogin,
  startSambaListRefused,
  startSambaNullSession,
  startSambaRestricted,
  startSambaSmb1Shares,
  startSambaSmb3Shares,
} from '../../../tests/fixtures/smb/samba-servers.ts';
import {
  startRlogind,
  startSnmpdPrivateCommunity,
  startSnmpdPublic,
  startTelnetd,
  startVncAuth,
  startVncNoAuth,
  startVsftpdTls,
  startVsftpdWritable,
} from '../../../tests/fixtures/services/service-servers.ts';
import {
  startNetkitHostsEquiv,
  startNetkitOtherHost,
  startNetkitRexec,
  startNetkitTrusting,
  startRedoneHostsEquiv,
  startRedoneNoTrust,
  startRedoneOtherHostsEquiv,
  startRedoneTrusting,
} from '../../../tests/fixtures/services/rsh-servers.ts';
import type { NmapRun } from '../nmap-scripts.ts';
import { nmapScripts } from '../nmap-scripts.ts';
import { shareAccess, smbclientTool } from '../smb-references.ts';
import type { DetectionFixture, ReferenceTool } from '../types.ts';

export const nmapServiceScripts = [
  'ftp-anon',
  'ftp-syst',
  'telnet-encryption',
  'vnc-info',
  'realvnc-auth-bypass',
  'mysql-empty-password',
  'mysql-info',
  'redis-info',
  'memcached-info',
  'snmp-info',
  'snmp-sysdescr',
  'smb-protocols',
  'smb-security-mode',
  'smb2-security-mode',
  'smb-enum-shares',
  'couchdb-databases',
  'couchdb-stats',
  'mongodb-databases',
  'mongodb-info',
];

/** What nmap's output says, as our rules: each mapping is a plain reading of its script or service name. */
export function nmapClaims(run: NmapRun): PlantedIssue[] {
  const claims: PlantedIssue[] = [];
  const smbPorts: string[] = [];
  for (const [key, port] of run.ports) {
    if (key === 'host' || port.state !== 'open') {
      continue;
    }
    const location = `:${key}`;
    const claim = (rule_id: string) => claims.push({ rule_id, location });
    const out = (id: string) => port.scripts.get(id) ?? '';
    if (!key.endsWith('/udp')) {
      claim('infra.open-port');
    }
    if (/^(mysql|postgresql)\b/.test(port.service)) {
      claim('infra.database.exposed');
    }
    if (/^telnet\b/.test(port.service)) {
      claim('infra.telnet.open');
    }
    if (/^(login|rlogin)\b/.test(port.service)) {
      claim('infra.rlogin.open');
    }
    // rsh's and rexec's names only when a probe confirmed them: on 514 and 512 nmap falls back to its
    // port table ("exec?"), which names whatever listens there.
    if (/^(shell|rsh)\b/.test(port.service) && !port.guessed) {
      claim('infra.rsh.open');
    }
    if (/^(exec|rexec)\b/.test(port.service) && !port.guessed) {
      claim('infra.rexec.open');
    }
    if (/^(microsoft-ds|netbios-ssn)\b/.test(port.service)) {
      claim('infra.smb.exposed');
      smbPorts.push(location);
    }
    if (/^vnc\b/.test(port.service)) {
      claim(
        /None \(1\)|does not require authentication/.test(out('vnc-info'))
          ? 'infra.vnc.no-auth'
          : 'infra.vnc.exposed',
      );
    }
    if (/Anonymous FTP login allowed/.test(out('ftp-anon'))) {
      claim('infra.ftp.anonymous');
    }
    // ftp-anon marks listed directories that are world-writable; it never writes.
    if (/\[NSE: writeable\]/.test(out('ftp-anon'))) {
      claim('infra.ftp.anonymous-write');
    }
    if (/anonymous account has empty password/.test(out('mysql-empty-password'))) {
      claim('infra.mysql.anonymous');
    }
    if (/root account has empty password/.test(out('mysql-empty-password'))) {
      claim('infra.mysql.empty-root-password');
    }
    if (/Version: \d/.test(out('redis-info'))) {
      claim('infra.redis.unauthenticated');
    }
    if (/Process ID: \d/.test(out('memcached-info'))) {
      claim('infra.memcached.unauthenticated');
    }
    // couchdb-databases prints the parsed body of GET /_all_dbs: an array's items as "1 = name", a
    // refusal as "error = unauthorized". couchdb-stats says "NOT enabled ('admin party')" when /_config
    // answers with CouchDB 1.x's handler table.
    if (
      (/^\s*\|?_?\s*1 = /m.test(out('couchdb-databases')) && !/error = /.test(out('couchdb-databases'))) ||
      /NOT enabled \('admin party'\)/.test(out('couchdb-stats'))
    ) {
      claim('infra.couchdb.unauthenticated');
    }
    // mongodb-databases prints listDatabases' answer: its databases and "ok = 1" when it was allowed.
    if (/\bdatabases\b/.test(out('mongodb-databases')) && /\bok = 1\b/.test(out('mongodb-databases'))) {
      claim('infra.mongodb.unauthenticated');
    }
    // snmp-sysdescr asks with community "public"; snmp-info uses SNMPv3 discovery, no community at all.
    if (out('snmp-sysdescr').trim() !== '') {
      claim('infra.snmp.default-community');
    }
  }
  if (
    /signing enabled but not required/.test(run.ports.get('host')?.scripts.get('smb2-security-mode') ?? '')
  ) {
    smbPorts.forEach((location) => claims.push({ rule_id: 'infra.smb.signing-not-required', location }));
  }
  // smb-enum-shares lists IPC$ with "Anonymous access: READ" when a null session reaches it, and each
  // disk share the anonymous session could read the same way (it speaks SMB1 only). When listing fails it
  // guesses common names, in its own upper case (Samba's names are case-insensitive), and cannot read their
  // type: its write probe's NT_STATUS_OBJECT_NAME_NOT_FOUND then prints "Not a file share".
  const output = run.ports.get('host')?.scripts.get('smb-enum-shares') ?? '';
  const guessed = /Enumerating shares failed, guessing at common ones/.test(output);
  const fileShare = (s: { name: string; type: string }) =>
    s.type === 'STYPE_DISKTREE' || (guessed && s.type === 'Not a file share' && !s.name.endsWith('$'));
  const shares = shareAccess(output);
  for (const location of smbPorts) {
    if (shares.some((s) => s.name === 'IPC$' && /^READ/.test(s.anonymous))) {
      claims.push({ rule_id: 'infra.smb.null-session', location });
    }
    for (const share of shares.filter((s) => fileShare(s) && /^READ/.test(s.anonymous))) {
      const name = guessed ? share.name.toLowerCase() : share.name;
      claims.push({ rule_id: 'infra.smb.anonymous-share', location: `${location}/share/${name}` });
    }
  }
  return claims;
}

const nmapCovers = new Set([
  'infra.open-port',
  'infra.database.exposed',
  'infra.telnet.open',
  'infra.rlogin.open',
  'infra.rsh.open',
  'infra.rexec.open',
  'infra.smb.exposed',
  'infra.smb.null-session',
  'infra.smb.anonymous-share',
  'infra.smb.signing-not-required',
  'infra.vnc.no-auth',
  'infra.vnc.exposed',
  'infra.ftp.anonymous',
  'infra.ftp.anonymous-write',
  'infra.mysql.anonymous',
  'infra.mysql.empty-root-password',
  'infra.redis.unauthenticated',
  'infra.memcached.unauthenticated',
  'infra.snmp.default-community',
  'infra.couchdb.unauthenticated',
  'infra.mongodb.unauthenticated',
]);

function nmap(tcp: number[], udp: number[]): ReferenceTool {
  return {
    name: 'nmap -sV + service NSE scripts',
    command: 'nmap',
    aptPackage: 'nmap',
    covers: (issue) => nmapCovers.has(issue.rule_id),
    async run(fixture) {
      const run = await nmapScripts({ tcp, udp }, nmapServiceScripts);
      const key = (i: PlantedIssue) => `${i.rule_id} @ ${i.location}`;
      const planted = new Set(fixture.planted.map(key));
      const claims = nmapClaims(run);
      return {
        found: claims.filter((c) => planted.has(key(c))),
        falsePositives: claims.filter((c) => !planted.has(key(c))).map(key),
        ms: run.ms,
      };
    },
  };
}

/** Several servers started together as one fixture (a pair and its twin, or neighbours). */
function together(...started: (RunningFixture | RunningFixture[])[]): RunningFixture {
  const all = started.flat();
  return {
    target: '127.0.0.1',
    planted: all.flatMap((f) => f.planted),
    close: async () => {
      await Promise.all(all.map((f) => f.close()));
    },
  };
}

const servicesFixture = (
  name: string,
  ports: { tcp?: number[]; udp?: number[] },
  start: () => Promise<RunningFixture>,
  extraTools: ReferenceTool[] = [],
): DetectionFixture => {
  const tcp = ports.tcp ?? [];
  const udp = ports.udp ?? [];
  return {
    name,
    classOf: (issue) => (issue.rule_id === 'infra.open-port' ? 'ports' : 'services'),
    start,
    scan: (f) =>
      runScan('infrastructure', {
        target: f.target,
        mode: 'local',
        allowIntrusive: true,
        ports: [...tcp.map(String), ...udp.map((p) => `U:${p}`)].join(','),
      }),
    tools: [nmap(tcp, udp), ...extraTools],
  };
};

export const fixtures: DetectionFixture[] = [
  servicesFixture('vsftpd: anonymous upload to incoming/, no TLS', { tcp: [2321] }, startVsftpdWritable),
  servicesFixture('vsftpd: anonymous read-only, no TLS', { tcp: [2199] }, startVsftpd),
  servicesFixture('vsftpd: FTPS required, no anonymous (silent twin)', { tcp: [2322] }, startVsftpdTls),
  servicesFixture('inetutils telnetd', { tcp: [2340] }, startTelnetd),
  servicesFixture("rsh-redone's rlogind", { tcp: [2341] }, startRlogind),
  // On rsh's and rexec's own ports, where nmap's port table could name them; one at a time.
  servicesFixture("rsh-redone's rshd: root's .rhosts trusts root@localhost", { tcp: [514] }, () =>
    startRedoneTrusting(514),
  ),
  servicesFixture("netkit rshd 0.17: root's .rhosts is '+ +'", { tcp: [514] }, () =>
    startNetkitTrusting(514),
  ),
  servicesFixture("rsh-redone's rshd: no .rhosts (twin)", { tcp: [514] }, () => startRedoneNoTrust(514)),
  servicesFixture('netkit rshd: .rhosts trusts another host and user (twin)', { tcp: [514] }, () =>
    startNetkitOtherHost(514),
  ),
  servicesFixture("rsh-redone's rshd: hosts.equiv '+' (non-root accounts)", { tcp: [514] }, () =>
    startRedoneHostsEquiv(514),
  ),
  servicesFixture("netkit rshd 0.17: hosts.equiv '+' (non-root accounts)", { tcp: [514] }, () =>
    startNetkitHostsEquiv(514),
  ),
  servicesFixture("rsh-redone's rshd: hosts.equiv names other hosts (twin)", { tcp: [514] }, () =>
    startRedoneOtherHostsEquiv(514),
  ),
  servicesFixture('netkit rexecd 0.17', { tcp: [512] }, () => startNetkitRexec(512)),
  servicesFixture('TigerVNC Xvnc: security type None', { tcp: [2342] }, startVncNoAuth),
  servicesFixture('TigerVNC Xvnc: VncAuth (twin)', { tcp: [2343] }, startVncAuth),
  servicesFixture(
    'Samba 4.17: null session to IPC$, a guest share and a hidden one (browseable = no)',
    { tcp: [445] },
    () => startSambaNullSession(445),
    [smbclientTool(445)],
  ),
  servicesFixture(
    'Samba 4.17: the same with SMB1 enabled (server min protocol = NT1)',
    { tcp: [445] },
    () => startSambaSmb1Shares(445),
    [smbclientTool(445)],
  ),
  servicesFixture(
    'Samba 4.17: SMB 3.1.1 only, signing mandatory, writable guest share, hidden backup$',
    { tcp: [445] },
    () => startSambaSmb3Shares(445),
    [smbclientTool(445)],
  ),
  servicesFixture(
    'impacket 0.10 SimpleSMBServer: a folder shared with anyone (SMB 2.0.2)',
    { tcp: [445] },
    () => startImpacketSmb(445),
    [smbclientTool(445)],
  ),
  servicesFixture(
    'Samba 4.17: restrict anonymous = 2 (no IPC$, no list), SMB1 on, yet a guest share',
    { tcp: [445] },
    () => startSambaListRefused(445),
    [smbclientTool(445)],
  ),
  servicesFixture(
    'Samba 4.17: hidden shares needing a login or unreadable to guests (twin)',
    { tcp: [445] },
    () => startSambaHiddenLogin(445),
    [smbclientTool(445)],
  ),
  servicesFixture(
    'Samba 4.17: restrict anonymous = 2, no guest share (twin)',
    { tcp: [445] },
    () => startSambaRestricted(445),
    [smbclientTool(445)],
  ),
  servicesFixture('net-snmp snmpd: community public (UDP)', { udp: [2346] }, startSnmpdPublic),
  servicesFixture(
    'net-snmp snmpd: private community (silent twin)',
    { udp: [2347] },
    startSnmpdPrivateCommunity,
  ),
  servicesFixture(
    'MariaDB 10.11: anonymous + empty root, and its safe twin',
    { tcp: [2330, 2331] },
    async () => together(await startMariadbPair()),
  ),
  servicesFixture('PostgreSQL 15: trust, and its scram-sha-256 twin', { tcp: [2332, 2333] }, async () =>
    together(await startPostgresPair()),
  ),
  servicesFixture(
    'Redis and Memcached without auth, and their twins with auth',
    { tcp: [6390, 11299, 2334, 2335] },
    async () => together(await startRealServices(), await startRedisSafe(), await startMemcachedSafe()),
  ),
  // On CouchDB's and MongoDB's own ports, where nmap's scripts run without -sV naming the service
  // (it names PouchDB Server plain http); one at a time.
  servicesFixture('PouchDB Server 4.2: in memory, no admin (admin party)', { tcp: [5984] }, () =>
    startPouchdbAdminParty(5984),
  ),
  servicesFixture('PouchDB Server 4.2: LevelDB, an admin, /_all_dbs still open', { tcp: [5984] }, () =>
    startPouchdbListingAdmins(5984),
  ),
  servicesFixture('express-pouchdb: /_all_dbs switched off, no admin (admin party)', { tcp: [5984] }, () =>
    startExpressPouchdbUnlisted(5984),
  ),
  servicesFixture('express-pouchdb: an admin, /_all_dbs switched off (silent twin)', { tcp: [5984] }, () =>
    startExpressPouchdbLocked(5984),
  ),
  servicesFixture(
    'CongoDB (smartmongo 2.2 MongoDB wire server): in memory, no access control',
    { tcp: [27017] },
    () => startCongodbMemory(27017),
  ),
  servicesFixture('CongoDB: on files, no access control', { tcp: [27017] }, () => startCongodbFiles(27017)),
];
