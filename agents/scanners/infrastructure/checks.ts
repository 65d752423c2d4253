// What each identified service is checked for. Every check is read-only: a login attempt with the
// anonymous account, an informational command, never a write.
import type { Finding } from '../../../shared/findings.ts';
import { grab } from './grab.ts';
import type { Step } from './grab.ts';
import type { ServiceInfo, Timing } from './identify.ts';
import { printable, slowServiceMs } from './identify.ts';
import { infrastructureFinding } from './rules.ts';
import { sshFindings } from './ssh-checks.ts';
import { httpGet, mongoCommand, parseMongoReply } from './wire.ts';

export interface CheckContext {
  address: string;
  host: string;
  port: number;
  location: string;
  timing: Timing;
  /** The scan's stop signal: a check ends its conversation at once. */
  signal?: AbortSignal;
}

type Check = (ctx: CheckContext, service: ServiceInfo) => Finding[] | Promise<Finding[]>;

const talk = (ctx: CheckContext, send: Buffer | string | null, then?: Step[]) =>
  // A known service gets time to answer even when slow (a loaded server); a quick one costs nothing more.
  grab(ctx.address, ctx.port, send, {
    firstByteMs: Math.max(ctx.timing.firstByteMs * 2, slowServiceMs),
    then,
    signal: ctx.signal,
  });

const checks: Record<string, Check> = {
  ssh: sshFindings,
  ftp: async (ctx) => {
    // A reply is complete at its last line, "code space text" (RFC 959 §4.2): a multi-line greeting
    // ("220-...") or a reply split over reads is waited for, not answered half-way.
    const after =
      (code: number, message: string): Step =>
      (got) => {
        const text = got.toString('latin1');
        const last = /^(\d{3}) [^\n]*\n$/m.exec(text.slice(text.lastIndexOf('\n', text.length - 2) + 1));
        if (!last) {
          return 'wait';
        }
        return Number(last[1]) === code ? Buffer.from(message) : null;
      };
    const transcript = await talk(ctx, null, [
      after(220, 'USER anonymous\r\n'),
      after(331, 'PASS vigil-scanner@example.com\r\n'),
      after(230, 'QUIT\r\n'),
    ]);
    const text = transcript.toString('latin1');
    return /^230/m.test(text)
      ? [
          infrastructureFinding('infra.ftp.anonymous', {
            location: ctx.location,
            evidence: `USER anonymous accepted: ${/^230.*$/m.exec(text)![0].trim()}`,
          }),
        ]
      : [];
  },
  telnet: (ctx, service) => [
    infrastructureFinding('infra.telnet.open', {
      location: ctx.location,
      evidence: `Telnet answered: ${service.banner}`,
    }),
  ],
  redis: async (ctx) => {
    const reply = await talk(ctx, 'PING\r\n', [
      (got) => (got.toString('latin1').startsWith('+PONG') ? Buffer.from('INFO server\r\n') : null),
    ]);
    const text = reply.toString('latin1');
    if (!text.startsWith('+PONG')) {
      return [];
    }
    const version = /redis_version:(\S+)/.exec(text)?.[1];
    return [
      infrastructureFinding('infra.redis.unauthenticated', {
        location: ctx.location,
        evidence: `PING answered +PONG without AUTH${version ? `; INFO: redis_version ${version}` : ''}`,
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
  postgresql: (ctx, service) => [
    infrastructureFinding('infra.database.exposed', {
      location: ctx.location,
      evidence: `PostgreSQL reachable (${service.banner})`,
    }),
  ],
  mysql: (ctx, service) => [
    infrastructureFinding('infra.database.exposed', {
      location: ctx.location,
      evidence: `MySQL reachable (${service.banner})`,
    }),
  ],
  smb: (ctx, service) => [
    infrastructureFinding('infra.smb.exposed', { location: ctx.location, evidence: service.banner }),
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
    const noAuth =
      version === 'RFB 003.003\n'
        ? types.length >= 4 && types.readUInt32BE(0) === 1
        : types.length > 1 && [...types.subarray(1, 1 + types[0]!)].includes(1);
    return noAuth
      ? [
          infrastructureFinding('infra.vnc.no-auth', {
            location: ctx.location,
            evidence: `${service.banner}: security type None offered (${printable(types)})`,
          }),
        ]
      : [infrastructureFinding('infra.vnc.exposed', { location: ctx.location, evidence: service.banner })];
  },
};

export async function serviceFindings(ctx: CheckContext, service: ServiceInfo): Promise<Finding[]> {
  return (await checks[service.name]?.(ctx, service)) ?? [];
}
