// The rsh findings of one port: the open service, then host-based trust, claimed the way an attacker
// would (any client may name any client user): root, whose only trust is its ~/.rhosts, and a few
// non-root accounts, which /etc/hosts.equiv also trusts. Each claim runs `id`, harmless and read-only.
import type { Finding } from '../../../shared/findings.ts';
import type { CheckContext } from './check-context.ts';
import type { ServiceInfo } from './identify.ts';
import { slowServiceMs } from './identify.ts';
import type { RshTrust } from './r-services.ts';
import { hostTrustAccounts, reservedPorts, rshCommand, rshHostTrust, rshTrust } from './r-services.ts';
import { infrastructureFinding } from './rules.ts';

/**
 * What the accepted non-root claims prove, an account whose shell ran the command first. Several accepting
 * accounts point to hosts.equiv, which then covers every non-root account with a working shell too.
 */
function hostTrustEvidence(accepted: RshTrust[]): string {
  const shown = (accepted.find((trust) => trust.ran) ?? accepted[0])!;
  const names = accepted.map((trust) => trust.account).join(', ');
  const source =
    accepted.length > 1
      ? '/etc/hosts.equiv naming this host or "+"'
      : `/etc/hosts.equiv naming this host or "+", or ~${shown.account}/.rhosts`;
  const proof = shown.ran
    ? `as ${shown.account} it ran \`${rshCommand}\`: ${shown.output}`
    : `for ${shown.account} it answered status byte 0 (authenticated), then the account's shell refused to run \`${rshCommand}\`: "${shown.output}"`;
  return `rsh accepted, without a password, client users claiming the account's own name for ${names} (tried ${hostTrustAccounts.join(', ')}; hosts.equiv never applies to root): host-based trust for non-root accounts, from ${source}; ${proof}`;
}

export async function rshFindings(ctx: CheckContext, service: ServiceInfo): Promise<Finding[]> {
  const findings = [
    infrastructureFinding('infra.rsh.open', { location: ctx.location, evidence: `rsh ${service.banner}` }),
  ];
  // Root and the other accounts side by side, each claim from a reserved source port of its own.
  const [rootPort, ...otherPorts] = reservedPorts(1 + hostTrustAccounts.length);
  const [trust, hostTrust] = await Promise.all([
    rshTrust(ctx.address, ctx.port, slowServiceMs, ctx.signal, rootPort),
    rshHostTrust(ctx.address, ctx.port, slowServiceMs, ctx.signal, otherPorts),
  ]);
  if (trust) {
    findings.push(
      infrastructureFinding('infra.rsh.trusted', {
        location: ctx.location,
        evidence: trust.ran
          ? `rsh ran \`${rshCommand}\` without a password for client user ${trust.clientUser} as account ${trust.account} (host-based trust: ~/.rhosts or hosts.equiv): ${trust.output}`
          : `rsh accepted client user ${trust.clientUser} for account ${trust.account} without a password (host-based trust: ~/.rhosts); status byte 0, then the account's shell refused to run \`${rshCommand}\`: "${trust.output}"`,
      }),
    );
  }
  if (hostTrust.length) {
    findings.push(
      infrastructureFinding('infra.rsh.trusted-host', {
        location: ctx.location,
        evidence: hostTrustEvidence(hostTrust),
      }),
    );
  }
  return findings;
}
