// What an SSH server is checked for, all before any login: its version, the algorithms of its KEXINIT,
// and the authentication methods it lists after our "none" request (no credential is ever sent).
import type { Finding } from '../../../shared/findings.ts';
import type { CheckContext } from './checks.ts';
import { grab } from './grab.ts';
import { slowServiceMs } from './identify.ts';
import type { ServiceInfo } from './identify.ts';
import { infrastructureFinding } from './rules.ts';
import { passwordMethods, sshAuthMethods } from './ssh-auth.ts';
import { parseKexInit, scannerIdent, sshWeaknesses } from './ssh-kex.ts';

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

async function algorithmFindings(ctx: CheckContext): Promise<Finding[]> {
  // The server's algorithm offer (its KEXINIT) follows our identification line, before any login.
  const transcript = await grab(ctx.address, ctx.port, null, {
    firstByteMs: Math.max(ctx.timing.firstByteMs * 2, slowServiceMs),
    signal: ctx.signal,
    then: [(got) => (/^SSH-[^\n]*\n/.test(got.toString('latin1')) ? Buffer.from(scannerIdent) : null)],
  });
  const offered = parseKexInit(transcript);
  if (!offered) {
    return [];
  }
  const weak = sshWeaknesses(offered);
  const rules = [
    ['infra.ssh.weak-kex', weak.kex],
    ['infra.ssh.weak-cipher', weak.ciphers],
    ['infra.ssh.weak-mac', weak.macs],
  ] as const;
  return rules
    .filter(([, names]) => names.length > 0)
    .map(([rule, names]) =>
      infrastructureFinding(rule, { location: ctx.location, evidence: `offered: ${names.join(', ')}` }),
    );
}

async function authFindings(ctx: CheckContext): Promise<Finding[]> {
  const offer = await sshAuthMethods(ctx.address, ctx.port, authProbeMs(ctx.timing.firstByteMs), ctx.signal);
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
          evidence: `USERAUTH_FAILURE to a "none" request lists: ${offer.methods.join(', ')} (${password.join(' and ')} accept a guessed password)`,
        }),
      ]
    : [];
}

export async function sshFindings(ctx: CheckContext, service: ServiceInfo): Promise<Finding[]> {
  const outdated = outdatedSsh(service.banner);
  const findings = outdated
    ? [
        infrastructureFinding('infra.ssh.outdated', {
          location: ctx.location,
          evidence: `${service.banner}: ${outdated}`,
        }),
      ]
    : [];
  const [algorithms, auth] = await Promise.all([algorithmFindings(ctx), authFindings(ctx)]);
  return [...findings, ...algorithms, ...auth];
}
