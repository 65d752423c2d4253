// What each identified service is checked for. Every check is harmless: a login with the anonymous
// account or no password and one informational command. Whether anonymous FTP may write (a marker file
// stored and deleted) is an intrusive check of its own (registry.ts, ftp-checks.ts).
import type { Finding } from '../../../shared/findings.ts';
import type { CheckContext } from './check-context.ts';
import { couchdbFindings } from './couchdb.ts';
import { mysqlFindings, postgresqlFindings } from './db-checks.ts';
import { ftpFindings } from './ftp-checks.ts';
import { grab } from './grab.ts';
import type { Step } from './grab.ts';
import type { ServiceInfo } from './identify.ts';
import { slowServiceMs } from './identify.ts';
import { infrastructureFinding } from './rules.ts';
import { rshFindings } from './rsh-checks.ts';
import { smbFindings } from './smb-checks.ts';
import { sshFindings } from './ssh-checks.ts';
import { httpGet, mongoCommand, parseMongoReply } from './wire.ts';

type Check = (ctx: CheckContext, service: ServiceInfo) => Finding[] | Promise<Finding[]>;

/** RFB security type names (RFC 6143 §7.1.2 and the IANA registry). */
const vncSecurityType = (type: number) =>
  ({ 1: '1 None', 2: '2 VNC Authentication', 16: '16 Tight', 18: '18 TLS', 19: '19 VeNCrypt' })[type] ??
  String(type);

const talk = (ctx: CheckContext, send: Buffer | string | null, then?: Step[]) =>
  // A known service gets time to answer even when slow (a loaded server); a quick one costs nothing more.
  grab(ctx.address, ctx.port, send, {
    firstByteMs: Math.max(ctx.timing.firstByteMs * 2, slowServiceMs),
    then,
    signal: ctx.signal,
  });

const checks: Record<string, Check> = {
  ssh: sshFindings,
  ftp: ftpFindings,
  telnet: (ctx, service) => [
    infrastructureFinding('infra.telnet.open', {
      location: ctx.location,
      evidence: `Telnet answered: ${service.banner}`,
    }),
  ],
  redis: async (ctx) => {
    const reply = await talk(ctx, 'PING\r\n', [
      (got) => (got.toString('latin1').startsWith('+PONG\r\n') ? Buffer.from('INFO server\r\n') : null),
    ]);
    const text = reply.toString('latin1');
    if (!text.startsWith('+PONG\r\n')) {
      return [];
    }
    const version = /redis_version:(\S+)/.exec(text)?.[1];
    return [
      infrastructureFinding('infra.redis.unauthenticated', {
        location: ctx.location,
        evidence: `PING answered +PONG without AUTH${version ? `; INFO server answered redis_version ${version}` : ''}`,
      }),
    ];
  },
  memcached: async (ctx) => {
    const text = (await talk(ctx, 'stats\r\n')).toString('latin1');
    const version = /STAT version (\S+)/.exec(text)?.[1];
    return /^STAT /m.test(text)
      ? [
          infrastructureFinding('infra.memcached.unauthenticated', {
            location: ctx.location,
            evidence: `stats answered without authentication${version ? ` (version ${version})` : ''}`,
          }),
        ]
      : [];
  },
  mongodb: async (ctx) => {
    const reply = parseMongoReply(
      await talk(ctx, mongoCommand({ listDatabases: 1, nameOnly: true, $db: 'admin' }, 2)),
    );
    if (!reply || reply.ok !== 1 || !Array.isArray(reply.databases)) {
      return [];
    }
    const names = (reply.databases as { name?: string }[]).map((db) => db.name ?? '?').join(', ');
    return [
      infrastructureFinding('infra.mongodb.unauthenticated', {
        location: ctx.location,
        evidence: `listDatabases without credentials: ${names}`,
      }),
    ];
  },
  elasticsearch: async (ctx) => {
    const text = (await talk(ctx, httpGet(ctx.host))).toString('utf8');
    const body = text
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join('\n');
    if (!/^HTTP\/\d(\.\d)? 200/.test(text)) {
      return [];
    }
    const cluster = /"cluster_name"\s*:\s*"([^"]*)"/.exec(body)?.[1];
    const version = /"number"\s*:\s*"([^"]*)"/.exec(body)?.[1];
    return [
      infrastructureFinding('infra.elasticsearch.unauthenticated', {
        location: ctx.location,
        evidence: `GET / answered 200 with cluster info: cluster_name ${cluster ?? '?'}, version ${version ?? '?'}`,
      }),
    ];
  },
  postgresql: async (ctx, service) => [
    infrastructureFinding('infra.database.exposed', {
      location: ctx.location,
      evidence: `PostgreSQL reachable (${service.banner})`,
    }),
    ...(await postgresqlFindings(ctx)),
  ],
  mysql: async (ctx, service) => [
    infrastructureFinding('infra.database.exposed', {
      location: ctx.location,
      evidence: `MySQL reachable (${service.banner})`,
    }),
    ...(await mysqlFindings(ctx)),
  ],
  couchdb: couchdbFindings,
  smb: smbFindings,
  rlogin: (ctx, service) => [
    infrastructureFinding('infra.rlogin.open', {
      location: ctx.location,
      evidence: `rlogin ${service.banner}`,
    }),
  ],
  rsh: rshFindings,
  rexec: (ctx, service) => [
    infrastructureFinding('infra.rexec.open', {
      location: ctx.location,
      evidence: `rexec ${service.banner}`,
    }),
  ],
  rdp: (ctx, service) => [
    infrastructureFinding('infra.rdp.exposed', {
      location: ctx.location,
      evidence: `RDP answered: ${service.banner}`,
    }),
  ],
  vnc: async (ctx, service) => {
    const version = service.banner.startsWith('RFB 003.003') ? 'RFB 003.003\n' : 'RFB 003.008\n';
    const reply = await talk(ctx, null, [
      (got) => (got.toString('latin1').startsWith('RFB') ? Buffer.from(version) : null),
    ]);
    const types = reply.subarray(12);
    // RFB 3.7+: count byte then types; RFB 3.3: a 4-byte type chosen by the server. 1 means "None".
    const offered =
      version === 'RFB 003.003\n'
        ? types.length >= 4
          ? [types.readUInt32BE(0)]
          : []
        : types.length > 1
          ? [...types.subarray(1, 1 + types[0]!)]
          : [];
    return offered.includes(1)
      ? [
          infrastructureFinding('infra.vnc.no-auth', {
            location: ctx.location,
            evidence: `${service.banner}: the server offers security type None, a desktop without a password (types offered: ${offered.map(vncSecurityType).join(', ')})`,
          }),
        ]
      : [infrastructureFinding('infra.vnc.exposed', { location: ctx.location, evidence: service.banner })];
  },
};

export async function serviceFindings(ctx: CheckContext, service: ServiceInfo): Promise<Finding[]> {
  return (await checks[service.name]?.(ctx, service)) ?? [];
}
