// Real services from Debian, each misconfigured beside its safe twin (tests/fixtures/services/service-servers.ts,
// database-servers.ts), plus the stand-in twins of the databases Debian does not package. All start
// once; one infrastructure scan covers every port, as it would on a crowded host; each fixture is then
// measured on its own ports: every planted issue found, nothing else.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Finding } from '../../shared/findings.ts';
import { runScan } from '../../agents/scanners/run-scan.ts';
import {
  databaseBinaries,
  startMariadbPair,
  startMemcachedSafe,
  startPostgresPair,
  startRedisSafe,
} from '../fixtures/databases/database-servers.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { relativeLocation } from '../fixtures/planted.ts';
import { impacketSmbserver, startImpacketSmb } from '../fixtures/smb/impacket-smb.ts';
import {
  smbd,
  startSambaHiddenLogin,
  startSambaListRefused,
  startSambaNullSession,
  startSambaRestricted,
  startSambaSmb3Shares,
} from '../fixtures/smb/samba-servers.ts';
import {
  rshBinaries,
  startNetkitHostsEquiv,
  startNetkitOtherHost,
  startNetkitRexec,
  startNetkitTrusting,
  startRedoneHostsEquiv,
  startRedoneNoTrust,
  startRedoneOtherHostsEquiv,
  startRedoneTrusting,
} from '../fixtures/services/rsh-servers.ts';
import {
  serviceBinaries,
  servicePorts,
  startRlogind,
  startSnmpdPrivateCommunity,
  startSnmpdPublic,
  startTelnetd,
  startVncAuth,
  startVncNoAuth,
  startVsftpdTls,
  startVsftpdWritable,
} from '../fixtures/services/service-servers.ts';
import { startUnpackagedTwins } from '../fixtures/databases/unpackaged-databases.ts';
import { startCongodbFiles, startCongodbMemory } from '../fixtures/databases/congodb-servers.ts';
import {
  startExpressPouchdbLocked,
  startExpressPouchdbUnlisted,
  startPouchdbAdminParty,
  startPouchdbListingAdmins,
} from '../fixtures/databases/couchdb-servers.ts';
import type { NpmServerName } from '../fixtures/npm-servers.ts';
import { npmServerEntry } from '../fixtures/npm-servers.ts';
import { debianFile } from '../fixtures/debian-packages.ts';
import type { Unmet } from '../helpers/requirements.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

interface Group {
  what: string;
  /** What the group's servers need: a file from Debian, or a server from npm. */
  binaries: (string | Unmet | null)[];
  start: () => Promise<RunningFixture[]>;
}

const one = (start: () => Promise<RunningFixture>) => async () => [await start()];
/** A server installed from npm by tests/fixtures/npm-servers.ts; a name that does not exist when it is not. */
const fromNpm = (name: NpmServerName): Unmet | null =>
  npmServerEntry(name)
    ? null
    : {
        requirement: `npm:${name}`,
        detail: `not in the cache (tests/scanners/run.sh installs it: npx tsx tests/fixtures/npm-servers.ts)`,
      };
const groups: Group[] = [
  {
    what: 'vsftpd: anonymous upload, no TLS',
    binaries: [serviceBinaries.vsftpd],
    start: one(startVsftpdWritable),
  },
  {
    what: 'vsftpd twin: FTPS only, no anonymous',
    binaries: [serviceBinaries.vsftpd],
    start: one(startVsftpdTls),
  },
  { what: 'inetutils telnetd', binaries: [serviceBinaries.telnetd], start: one(startTelnetd) },
  { what: "rsh-redone's rlogind", binaries: [serviceBinaries.rlogind], start: one(startRlogind) },
  {
    what: "rsh-redone's rshd: root's .rhosts trusts root@localhost",
    binaries: [rshBinaries.redoneRshd],
    start: one(() => startRedoneTrusting()),
  },
  {
    what: "netkit rshd 0.17: root's .rhosts is '+ +'",
    binaries: [rshBinaries.netkitRshd],
    start: one(() => startNetkitTrusting()),
  },
  {
    what: "rsh-redone's rshd twin: no .rhosts",
    binaries: [rshBinaries.redoneRshd],
    start: one(() => startRedoneNoTrust()),
  },
  {
    what: 'netkit rshd twin: .rhosts trusts another host, and another user here',
    binaries: [rshBinaries.netkitRshd],
    start: one(() => startNetkitOtherHost()),
  },
  {
    what: "rsh-redone's rshd: hosts.equiv '+' (non-root accounts, nologin shells)",
    binaries: [rshBinaries.redoneRshd],
    start: one(() => startRedoneHostsEquiv()),
  },
  {
    what: "netkit rshd 0.17: hosts.equiv '+' (non-root accounts, nologin shells)",
    binaries: [rshBinaries.netkitRshd],
    start: one(() => startNetkitHostsEquiv()),
  },
  {
    what: "rsh-redone's rshd twin: hosts.equiv names other hosts only",
    binaries: [rshBinaries.redoneRshd],
    start: one(() => startRedoneOtherHostsEquiv()),
  },
  { what: 'netkit rexecd 0.17', binaries: [rshBinaries.netkitRexecd], start: one(() => startNetkitRexec()) },
  { what: 'Xvnc without authentication', binaries: [serviceBinaries.xvnc], start: one(startVncNoAuth) },
  {
    what: 'Xvnc twin: VncAuth',
    binaries: [serviceBinaries.xvnc, serviceBinaries.vncpasswd],
    start: one(startVncAuth),
  },
  {
    what: 'Samba allowing null sessions, a guest share and a hidden one (browseable = no)',
    binaries: [smbd],
    start: one(startSambaNullSession),
  },
  {
    what: 'Samba refusing IPC$ to anonymous sessions (restrict anonymous = 2), yet a guest share',
    binaries: [smbd],
    start: one(startSambaListRefused),
  },
  {
    what: 'Samba twin: hidden shares that need a login or that guests may not read',
    binaries: [smbd],
    start: one(startSambaHiddenLogin),
  },
  {
    what: 'Samba SMB 3.1.1 only, signing mandatory, a writable guest share, an unlistable one, a hidden one',
    binaries: [smbd],
    start: one(startSambaSmb3Shares),
  },
  {
    what: "impacket's SimpleSMBServer sharing a folder with anyone (a second SMB implementation)",
    binaries: [impacketSmbserver],
    start: one(startImpacketSmb),
  },
  {
    what: 'Samba twin: restrict anonymous = 2, no guest share',
    binaries: [smbd],
    start: one(startSambaRestricted),
  },
  {
    what: 'snmpd with community public (UDP)',
    binaries: [serviceBinaries.snmpd],
    start: one(startSnmpdPublic),
  },
  {
    what: 'snmpd twin: a private community',
    binaries: [serviceBinaries.snmpd],
    start: one(startSnmpdPrivateCommunity),
  },
  {
    what: 'MariaDB with an anonymous account and root without password, and its safe twin',
    binaries: [databaseBinaries.mariadb, databaseBinaries.mariadbInstall],
    start: startMariadbPair,
  },
  {
    what: 'PostgreSQL 15 trusting the network, and its scram-sha-256 twin',
    binaries: [databaseBinaries.postgres, databaseBinaries.initdb],
    start: startPostgresPair,
  },
  { what: 'Redis twin: requirepass', binaries: [databaseBinaries.redis], start: one(startRedisSafe) },
  {
    what: 'Memcached twin: authentication file',
    binaries: [databaseBinaries.memcached],
    start: one(startMemcachedSafe),
  },
  {
    what: 'PouchDB Server 4.2 in memory, no admin (admin party)',
    binaries: [fromNpm('pouchdb')],
    start: one(() => startPouchdbAdminParty()),
  },
  {
    what: 'PouchDB Server 4.2 on LevelDB with an admin: /_all_dbs still open, one database without members',
    binaries: [fromNpm('pouchdb')],
    start: one(() => startPouchdbListingAdmins()),
  },
  {
    what: 'express-pouchdb with /_all_dbs switched off, no admin (admin party all the same)',
    binaries: [fromNpm('pouchdb')],
    start: one(() => startExpressPouchdbUnlisted()),
  },
  {
    what: 'express-pouchdb twin: an admin, /_all_dbs switched off',
    binaries: [fromNpm('pouchdb')],
    start: one(() => startExpressPouchdbLocked()),
  },
  {
    what: "CongoDB (smartmongo 2.2's MongoDB wire server) in memory: no access control",
    binaries: [fromNpm('congodb')],
    start: one(() => startCongodbMemory()),
  },
  {
    what: 'CongoDB on files: no access control',
    binaries: [fromNpm('congodb')],
    start: one(() => startCongodbFiles()),
  },
  {
    what: 'MongoDB, Elasticsearch, CouchDB 3 twins with authentication (stand-ins: no real server installable)',
    binaries: [],
    start: one(startUnpackagedTwins),
  },
];

const missing = (group: Group): Unmet[] =>
  group.binaries
    .map((binary) => (typeof binary === 'string' ? debianFile(binary) : binary))
    .filter((unmet): unmet is Unmet => unmet !== null);
const running = new Map<Group, RunningFixture[]>();
let findings: Finding[] = [];

beforeAll(async () => {
  await Promise.all(
    groups
      .filter((group) => missing(group).length === 0)
      .map(async (group) => running.set(group, await group.start())),
  );
  const planted = [...running.values()].flat().flatMap((fixture) => fixture.planted.map((p) => p.location));
  const tcp = [...new Set(planted.filter((l) => !l.endsWith('/udp')).map((l) => l.slice(1).split('/')[0]!))];
  const udp = [...new Set(planted.filter((l) => l.endsWith('/udp')).map((l) => `U:${l.slice(1, -4)}`))];
  // The SNMP twin has nothing planted, not even an open TCP port, yet its UDP port is scanned too.
  udp.push(`U:${servicePorts.snmpSafe}`);
  const result = await runScan('infrastructure', {
    target: '127.0.0.1',
    mode: 'local',
    // Our own fixtures: the anonymous FTP write is proven too.
    allowIntrusive: true,
    ports: [...tcp, ...udp].join(','),
  });
  findings = result.findings;
}, 120_000);

afterAll(async () => {
  await Promise.all([...running.values()].flat().map((fixture) => fixture.close()));
});

/** The findings on the fixture's ports only, with the locations below them (an SMB share). */
function on(fixture: RunningFixture, ports: string[]): Finding[] {
  return findings.filter((f) => {
    const location = relativeLocation(f.location, fixture.target);
    return ports.some((port) => location === port || location.startsWith(`${port}/share/`));
  });
}

const evidence = (rule: string, location = '') =>
  findings.find((f) => f.rule_id === rule && f.location.endsWith(location))?.evidence ?? '';

describe('infrastructure scanner against real services and their safe twins', () => {
  for (const group of groups) {
    it(group.what, requires(...missing(group)), () => {
      for (const fixture of running.get(group) ?? []) {
        const ports = [...new Set(fixture.planted.map((p) => p.location))];
        // A twin planted with nothing at all (the SNMP twin) must raise nothing on its UDP port.
        const own = ports.length ? ports : [`:${servicePorts.snmpSafe}/udp`];
        const m = measure(on(fixture, own), fixture.planted, fixture.target);
        expect(m.missed).toEqual([]);
        expect(m.unexpected).toEqual([]);
      }
    });
  }

  it('names the harmless command or exchange that proved each weakness', () => {
    const proven: [string, RegExp, string?][] = [
      [
        'infra.ftp.anonymous-write',
        /^anonymous STOR of \/incoming\/vigil-scan-write-test-[0-9a-f]{12}\.txt accepted \(226 .*\); DELE removed it \(250 /,
      ],
      ['infra.ftp.cleartext', /^AUTH TLS answered "530 /],
      ['infra.mysql.anonymous', /SELECT CURRENT_USER\(\) answered '@%'/],
      [
        'infra.mysql.empty-root-password',
        /as root with an empty password; SELECT CURRENT_USER\(\) answered 'root@%'/,
      ],
      ['infra.postgresql.trust', /AuthenticationOk\); SELECT version\(\) answered 'PostgreSQL 15\./],
      [
        'infra.smb.null-session',
        /anonymous NTLM session setup .* TREE_CONNECT to \\\\127\.0\.0\.1\\IPC\$ succeeded; NetrShareEnum over \\PIPE\\srvsvc listed 3 shares; root listed anonymously: public \(1 name\); TREE_CONNECT refused: 1 \(0xc0000022\); listed: public \(disk\), staff \(disk\), IPC\$ \(IPC\)$/,
        ':2344',
      ],
      [
        'infra.smb.anonymous-share',
        /found \\\\127\.0\.0\.1\\public through SRVSVC NetrShareEnum, TREE_CONNECT to it succeeded and QUERY_DIRECTORY of its root answered 1 name \(counted only; no file was opened\)$/,
        ':2344/share/public',
      ],
      [
        'infra.smb.null-session',
        /^SMB 3\.11: .*listed 43 shares; root listed anonymously: scans \(1 name\); connected, root listing refused: locked; TREE_CONNECT refused: 30 \(0xc0000022\); not tried: 10 \(at most 32 are\); listed: scans \(disk\), locked \(disk\), dept01 \(disk\), /,
        ':2348',
      ],
      [
        'infra.smb.anonymous-share',
        /answered 1 name \(counted only; no file was opened\); the share also grants this session write access/,
        ':2348/share/scans',
      ],
      [
        'infra.smb.anonymous-share',
        /^SMB 3\.11: the anonymous session \(no user name, no password\) found \\\\127\.0\.0\.1\\backups by trying 21 common share names \(not among the 3 shares NetrShareEnum listed\); TREE_CONNECT to it succeeded and QUERY_DIRECTORY of its root answered 1 name \(counted only; no file was opened\)$/,
        ':2344/share/backups',
      ],
      [
        'infra.smb.anonymous-share',
        /found \\\\127\.0\.0\.1\\backup\$ by trying 21 common share names \(not among the 43 shares NetrShareEnum listed\); .* answered 1 name/,
        ':2348/share/backup$',
      ],
      [
        'infra.smb.anonymous-share',
        /found \\\\127\.0\.0\.1\\public by trying 22 common share names \(no share list: the anonymous TREE_CONNECT to IPC\$ was refused\); .* answered 1 name/,
        ':2463/share/public',
      ],
      [
        'infra.smb.null-session',
        /^SMB 2\.02: .*listed 2 shares; root listed anonymously: DATA \(1 name\); listed: IPC\$ \(disk\), DATA \(disk\)$/,
        ':2355',
      ],
      [
        'infra.snmp.default-community',
        /^GetRequest for sysDescr\.0 .* community "public" \(SNMPv2c, SNMPv1\): "Linux /,
      ],
      ['infra.vnc.no-auth', /offers security type None/],
      ['infra.rlogin.open', /handshake accepted: Password:/],
      ['infra.rsh.open', /^rsh request refused: (Permission denied\.|Authentication failure)$/],
      [
        'infra.rsh.trusted',
        /^rsh ran `id` without a password for client user root as account root .*: uid=0\(root\) gid=0\(root\)/,
      ],
      [
        'infra.rsh.trusted-host',
        /^rsh accepted, without a password, client users claiming the account's own name for bin, daemon, sys, nobody \(tried bin, daemon, sys, nobody; hosts\.equiv never applies to root\): host-based trust for non-root accounts, from \/etc\/hosts\.equiv naming this host or "\+"; for bin it answered status byte 0 \(authenticated\), then the account's shell refused to run `id`: "This account is currently not available\."$/,
        ':2460',
      ],
      [
        'infra.rsh.trusted-host',
        /^rsh accepted, .* for bin, daemon, sys, nobody .*"This account is currently not available\."$/,
        ':2461',
      ],
      ['infra.rexec.open', /^rexec request refused: username too long$/],
      ['infra.telnet.open', /option negotiation: .*DO TERMINAL-TYPE/],
      [
        'infra.couchdb.unauthenticated',
        /^GET \/_session without credentials answered userCtx \{"name":null,"roles":\["_admin"\]\}: every anonymous request is server admin \(admin party\); GET \/_all_dbs answered 200 without credentials: \["_replicator","_users","invoices"\]$/,
        ':2384',
      ],
      [
        'infra.couchdb.unauthenticated',
        /^GET \/_all_dbs answered 200 without credentials: \["_replicator","_users","customers","payroll"\]$/,
        ':2385',
      ],
      [
        'infra.couchdb.unauthenticated',
        /^GET \/_session without credentials answered userCtx \{"name":null,"roles":\["_admin"\]\}: every anonymous request is server admin \(admin party\)$/,
        ':2386',
      ],
      ['infra.mongodb.unauthenticated', /^listDatabases without credentials: billing$/, ':2388'],
      ['infra.mongodb.unauthenticated', /^listDatabases without credentials: billing$/, ':2389'],
    ];
    const planted = new Set([...running.values()].flat().flatMap((f) => f.planted.map((p) => p.rule_id)));
    const expected = proven.filter(([rule]) => planted.has(rule));
    expect(expected.length).toBeGreaterThan(0);
    for (const [rule, pattern, location] of expected) {
      expect(evidence(rule, location)).toMatch(pattern);
    }
  });
});
