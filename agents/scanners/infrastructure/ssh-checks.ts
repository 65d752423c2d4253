// What an SSH server is checked for, all before any login: its version (outdated, known CVEs), the
// algorithms of its KEXINIT, the size of the groups it hands out in group exchange, its host key, and
// the authentication methods it lists after our "none" request (no credential is ever sent).
import type { Finding } from '../../../shared/findings.ts';
import { cvssBaseScore } from '../core/cvss.ts';
import type { CheckContext } from './check-context.ts';
import { grab } from './grab.ts';
import { slowServiceMs } from './identify.ts';
import type { ServiceInfo } from './identify.ts';
import { infrastructureFinding } from './rules.ts';
import type { SshAuthMethods } from './ssh-auth.ts';
import { passwordMethods, sshAuthMethods } from './ssh-auth.ts';
import {
  gexRequest,
  groupBits,
  groupExchangeMethod,
  groupExchangeOpening,
  minimumGroupBits,
} from './ssh-gex.ts';
import type { KexInitCut, SshAlgorithms } from './ssh-kex.ts';
import {
  describeCut,
  describeWeak,
  fromCut,
  parseKexInit,
  readKexInit,
  scannerIdent,
  sshWeaknesses,
  terrapinExposure,
} from './ssh-kex.ts';
import { maxPacket, readPayloads } from './ssh-packet.ts';
import { knownCves, opensshBuild } from './ssh-version.ts';

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

/** The key exchange and the auth request take a few round trips and a little CPU on the server. */
const authProbeMs = (firstByteMs: number) => Math.min(slowServiceMs, Math.max(3000, firstByteMs * 6));

/** What one clear-text conversation shows: the KEXINIT, and the group size when group exchange is offered. */
interface KexOffer {
  algorithms: SshAlgorithms;
  /** Set when the KEXINIT was read only in part. */
  cut?: KexInitCut;
  /** Bits of the prime the server sent for our group request, when it offers group exchange and answered. */
  groupBits?: number;
  groupMethod?: string;
}

/**
 * What the KEX conversation reads at most: lines before the identification (RFC 4253 §4.2 allows them),
 * the identification, and a KEXINIT as large as OpenSSH accepts, so a padded one cannot hide its lists.
 */
const kexReadBytes = 16 * 1024 + maxPacket;

async function readKexOffer(ctx: CheckContext): Promise<KexOffer | null> {
  const payloads = (got: Buffer) => readPayloads(got) ?? [];
  const transcript = await grab(ctx.address, ctx.port, null, {
    firstByteMs: Math.max(ctx.timing.firstByteMs * 2, slowServiceMs),
    maxBytes: kexReadBytes,
    signal: ctx.signal,
    then: [
      (got) => (/^SSH-[^\n]*\n/.test(got.toString('latin1')) ? Buffer.from(scannerIdent) : null),
      // Its KEXINIT complete: answer it choosing group exchange and ask for a group, or stop.
      (got) => {
        const offered = payloads(got)[0] ? parseKexInit(got) : undefined;
        if (offered === undefined) {
          return 'wait';
        }
        const method = offered && groupExchangeMethod(offered);
        return offered && method ? groupExchangeOpening(offered, method) : offered ? 'done' : null;
      },
      (got) => (payloads(got).length < 2 ? 'wait' : 'done'),
    ],
  });
  const read = readKexInit(transcript);
  if (!read) {
    return null;
  }
  const { algorithms, cut } = read;
  if (cut) {
    return { algorithms, cut };
  }
  const group = readPayloads(transcript)?.[1];
  const bits = group ? groupBits(group) : null;
  return bits === null
    ? { algorithms }
    : { algorithms, groupBits: bits, groupMethod: groupExchangeMethod(algorithms) ?? undefined };
}

function algorithmFindings(ctx: CheckContext, offer: KexOffer, login: SshAuthMethods | null): Finding[] {
  const weak = sshWeaknesses(offer.algorithms);
  const shortRsa =
    login?.hostKey?.type === 'ssh-rsa' && login.hostKey.bits < 2048
      ? [`RSA host key of ${login.hostKey.bits} bits (under 2048)`]
      : [];
  const at = { location: ctx.location };
  const lists = [
    ['infra.ssh.weak-kex', describeWeak(weak.kex)],
    ['infra.ssh.weak-host-key', [describeWeak(weak.hostKeys), ...shortRsa].filter(Boolean).join('; ')],
    ['infra.ssh.weak-cipher', describeWeak(weak.ciphers)],
    ['infra.ssh.weak-mac', describeWeak(weak.macs)],
  ] as const;
  const partly = offer.cut ? fromCut(offer.cut) : '';
  const findings = lists
    .filter(([, evidence]) => evidence !== '')
    .map(([rule, evidence]) =>
      infrastructureFinding(rule, { ...at, evidence: `offered: ${evidence}${partly}` }),
    );
  if (offer.cut) {
    findings.push(
      infrastructureFinding('infra.ssh.kexinit-unread', { ...at, evidence: describeCut(offer.cut) }),
    );
  }
  if (offer.groupBits !== undefined && offer.groupBits < minimumGroupBits) {
    findings.push(
      infrastructureFinding('infra.ssh.small-dh-group', {
        ...at,
        evidence: `${offer.groupMethod}: asked for a group of ${gexRequest.min}-${gexRequest.max} bits (preferred ${gexRequest.preferred}), the server sent a ${offer.groupBits}-bit prime`,
      }),
    );
  }
  const terrapin = terrapinExposure(offer.algorithms);
  if (terrapin) {
    findings.push(infrastructureFinding('infra.ssh.terrapin', { ...at, evidence: terrapin }));
  }
  return findings;
}

function authFindings(ctx: CheckContext, offer: SshAuthMethods | null): Finding[] {
  if (!offer) {
    return [];
  }
  if (offer.noneAccepted) {
    return [
      infrastructureFinding('infra.ssh.no-auth', {
        location: ctx.location,
        evidence: 'the server accepted the "none" authentication method: a session without any credential',
      }),
    ];
  }
  const password = passwordMethods(offer);
  return password.length > 0
    ? [
        infrastructureFinding('infra.ssh.password-auth', {
          location: ctx.location,
          evidence: `USERAUTH_FAILURE to a "none" request lists: ${offer.methods.join(', ')} (${password.join(' and ')} ${password.length > 1 ? 'accept' : 'accepts'} a guessed password)`,
        }),
      ]
    : [];
}

function versionFindings(ctx: CheckContext, banner: string): Finding[] {
  const findings: Finding[] = [];
  const outdated = outdatedSsh(banner);
  if (outdated) {
    findings.push(
      infrastructureFinding('infra.ssh.outdated', {
        location: ctx.location,
        evidence: `${banner}: ${outdated}`,
      }),
    );
  }
  const build = opensshBuild(banner);
  const cves = build ? knownCves(build) : [];
  if (cves.length > 0) {
    // The finding is as severe as its worst CVE with a published vector.
    const worst = cves
      .map(({ cve }) => cve.cvss)
      .filter((vector): vector is string => vector !== undefined)
      .sort((a, b) => cvssBaseScore(b) - cvssBaseScore(a))[0];
    findings.push(
      infrastructureFinding('infra.ssh.known-cve', {
        location: ctx.location,
        // Every CVE id first: a long evidence is cut at its end, where the summaries are.
        evidence: `${banner}: ${cves.map(({ cve, fix }) => `${cve.id} (${fix})`).join(', ')}. ${cves.map(({ cve }) => `${cve.id}: ${cve.summary}`).join('; ')}`,
        cvss: worst,
      }),
    );
  }
  return findings;
}

export async function sshFindings(ctx: CheckContext, service: ServiceInfo): Promise<Finding[]> {
  const [offer, login] = await Promise.all([
    readKexOffer(ctx),
    sshAuthMethods(ctx.address, ctx.port, authProbeMs(ctx.timing.firstByteMs), ctx.signal),
  ]);
  return [
    ...versionFindings(ctx, service.banner),
    ...(offer ? algorithmFindings(ctx, offer, login) : []),
    ...authFindings(ctx, login),
  ];
}
