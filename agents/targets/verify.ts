// Ownership proof for a scan target (docs/architecture.md §6): the target serves the customer's token at
// /.well-known/vigil-verification.txt, or its DNS name has a TXT record vigil-verification=<token>.
// The HTTP check goes through the scanners' target policy, so in hosted mode a customer cannot make
// us fetch from private, loopback or metadata addresses; local mode allows loopback.
import dns from 'node:dns/promises';
import net from 'node:net';
import { HttpClient } from '../scanners/core/http-client.ts';
import { TargetPolicy, TargetRefusedError, type ScanMode, type Resolver } from '../scanners/target-policy.ts';
import { targetHost, verificationOrigins, type ScanTargetRow } from './target.ts';

export const WELL_KNOWN_PATH = '/.well-known/vigil-verification.txt';

export type Verification = { verified: true; method: 'http' | 'dns' } | { verified: false; reason: string };

export interface VerifyOptions {
  mode: ScanMode;
  signal?: AbortSignal;
  resolver?: Resolver;
  txtResolver?: (host: string) => Promise<string[][]>;
}

/** True when `body` proves `token`: the token alone, or a line vigil-verification=<token>. */
export function bodyProvesToken(body: string, token: string): boolean {
  return body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .some((line) => line === token || line === `vigil-verification=${token}`);
}

export async function verifyTarget(
  target: Pick<ScanTargetRow, 'kind' | 'value' | 'verification_token'>,
  options: VerifyOptions,
): Promise<Verification> {
  const policy = new TargetPolicy(options.mode, options.resolver);
  const host = targetHost(target);
  const reasons: string[] = [];
  try {
    await policy.resolve(host);
  } catch (error) {
    // Guard: a target the scanners may never reach is refused before any request is sent.
    if (error instanceof TargetRefusedError) {
      return { verified: false, reason: `This target cannot be scanned: ${error.reason}` };
    }
    throw error;
  }
  // DNS first: it proves ownership without a single request to the target.
  if (!net.isIP(host)) {
    const records = await (options.txtResolver ?? dns.resolveTxt)(host).catch(() => [] as string[][]);
    if (
      records.some((chunks) => chunks.join('').trim() === `vigil-verification=${target.verification_token}`)
    ) {
      return { verified: true, method: 'dns' };
    }
    reasons.push(`DNS TXT of ${host}: no vigil-verification record with the token`);
  }
  const client = new HttpClient({
    policy,
    signal: options.signal,
    maxRequests: 10,
    timeoutMs: 5000,
    maxBodyBytes: 4096,
  });
  try {
    for (const origin of verificationOrigins(target)) {
      const url = new URL(WELL_KNOWN_PATH, origin);
      const response = await client.tryRequest(url, { followRedirects: 'same-origin' });
      if (!response) {
        reasons.push(`${url.href}: no answer`);
        continue;
      }
      if (response.status === 200 && bodyProvesToken(response.body, target.verification_token)) {
        return { verified: true, method: 'http' };
      }
      reasons.push(
        `${url.href}: HTTP ${response.status}${response.status === 200 ? ' without the token' : ''}`,
      );
    }
  } catch (error) {
    if (error instanceof TargetRefusedError) {
      return { verified: false, reason: `This target cannot be scanned: ${error.reason}` };
    }
    throw error;
  } finally {
    client.close();
  }
  return { verified: false, reason: `Ownership not proven. ${reasons.join('; ')}` };
}
