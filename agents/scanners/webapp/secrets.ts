// Secrets that should never reach a browser: cloud keys, private keys, provider tokens. Evidence is
// masked so that our own reports do not spread the secret further.
import type { Finding } from '../../../shared/findings.ts';
import { webappFinding } from './rules.ts';
import type { WebappRuleId } from './rules.ts';

const patterns: { rule: WebappRuleId; kind: string; pattern: RegExp }[] = [
  { rule: 'web.secret.aws-key', kind: 'AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  {
    rule: 'web.secret.private-key',
    kind: 'PEM private key',
    pattern: /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----/g,
  },
  { rule: 'web.secret.token', kind: 'GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{36}\b/g },
  { rule: 'web.secret.token', kind: 'Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { rule: 'web.secret.token', kind: 'Stripe live secret key', pattern: /\b[sr]k_live_[0-9a-zA-Z]{24,}\b/g },
  { rule: 'web.secret.token', kind: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { rule: 'web.secret.token', kind: 'npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
];

export function mask(secret: string): string {
  return secret.length <= 12 ? `${secret.slice(0, 2)}…` : `${secret.slice(0, 6)}…${secret.slice(-2)}`;
}

export function secretFindings(location: string, body: string): Finding[] {
  const findings: Finding[] = [];
  for (const { rule, kind, pattern } of patterns) {
    const matches = [...body.matchAll(pattern)]
      .map((match) => match[0])
      .filter((value) => !value.endsWith('EXAMPLE'));
    if (matches.length > 0 && !findings.some((finding) => finding.rule_id === rule)) {
      findings.push(
        webappFinding(rule, {
          location,
          evidence: `${kind}: ${mask(matches[0]!)}${matches.length > 1 ? ` (+${matches.length - 1} more)` : ''}`,
        }),
      );
    }
  }
  return findings;
}
