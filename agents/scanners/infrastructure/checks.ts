// What each identified service is checked for. Every check is read-only: a login attempt with the
// anonymous account, an informational command, never a write.
import type { Finding } from '../../../shared/findings.ts';
import { grab } from './grab.ts';
import type { ServiceInfo, Timing } from './identify.ts';
import { printable } from './identify.ts';
import { infrastructureFinding } from './rules.ts';
import { parseKexInit, scannerIdent, sshWeaknesses } from './ssh-kex.ts';
import { httpGet, mongoCommand, parseMongoReply } from './wire.ts';

interface CheckContext {
  address: string;
  host: string;
  port: number;
  location: string;
  timing: Timing;
}

type Check = (ctx: CheckContext, service: ServiceInfo) => Finding[] | Promise<Finding[]>;

const talk = (
  ctx: CheckContext,
  send: Buffer | string | null,
  then?: ((received: Buffer) => Buffer | null)[],
) => grab(ctx.address, ctx.port, send, { firstByteMs: ctx.timing.firstByteMs * 2, then });

/** OpenSSH before 8.0 (2019) and any SSH-1 server; Dropbear before 2020. */
export function outdatedSsh(banner: string): string | null {
  if (/^SSH-1\./.test(banner)) {
    return 'SSH protocol 1 offered (broken since 2001)';
  }
  const openssh = /OpenSSH_(\d+)\.(\d+)/.exec(banner);
  if (openssh && Number(openssh[1]) < 8) {
    return `OpenSSH ${openssh[1]}.${openssh[2]} is older than 8.0 (known issues include CVE-2018-15473, CVE-2019-6111, CVE-2016-20012)`;
  }
  const dropbear = /dropbear_(\d{4})\.(\d+)/i.exec(banner);
  if (dropbear && Number(dropbear[1]) < 2020) {
    return `Dropbear ${dropbear[1]}.${dropbear[2]} is older than 2020.79`;
  }
  return null;
}

const checks: Record<string, Check> = {
  ssh: async (ctx, service) => {
    const outdated = outdatedSsh(service.banner);
    const findings = outdated
      ? [
          infrastructureFinding('infra.ssh.outdated', {
            location: ctx.location,
            evidence: `${service.banner}: ${outdated}`,
          }),
        ]
      : [];
    // The server's algorithm offer (its KEXINIT) follows our identification line, before any login.
    const transcript = await talk(ctx, null, [
      (got) => (/^SSH-[^\n]*\n/.test(got.toString('latin1')) ? Buffer.from(scannerIdent) : null),
    ]);
    const offered = parseKexInit(transcript);
    if (offered) {
      const weak = sshWeaknesses(offered);
      const report = (
        rule: 'infra.ssh.weak-kex' | 'infra.ssh.weak-cipher' | 'infra.ssh.weak-mac',
        names: string[],
      ) => {
        if (names.length > 0) {
          findings.push(
            infrastructureFinding(rule, { location: ctx.location, evidence: `offered: ${names.join(', ')}` }),
          );
        }
      };
      report('infra.ssh.weak-kex', weak.kex);
      report('infra.ssh.weak-cipher', weak.ciphers);
      report('infra.ssh.weak-mac', weak.macs);
    }
    return findings;
  },
  ftp: async (ctx) => {
    const transcript = await talk(ctx, null, [
      (got) => (/^220/m.test(got.toString('latin1')) ? Buffer.from('USER anonymous\r\n') : null),
      (got) =>
        /^331/m.test(got.toString('latin1')) ? Buffer.from('PASS vigil-scanner@example.com\r\n') : null,
      (got) => (/^230/m.test(got.toString('latin1')) ? Buffer.from('QUIT\r\n') : null),
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
