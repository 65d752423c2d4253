// Which network addresses a scan may touch. Hosted mode (the SaaS worker) refuses anything that is not
// public unicast — loopback, private, link-local (cloud metadata), unique-local, CGNAT, multicast — so a
// customer cannot point our scanners at our own network. Local mode (the embedded stack on one machine,
// `npm run scan`) allows them. Checks run on resolved addresses, and the resolved address is pinned for
// the connection, so DNS rebinding between check and connect cannot slip past.
import dns from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import net from 'node:net';

import ipaddr from 'ipaddr.js';

export type ScanMode = 'local' | 'hosted';

export class TargetRefusedError extends Error {
  constructor(
    readonly target: string,
    readonly reason: string,
  ) {
    super(`target refused: ${target} (${reason})`);
    this.name = 'TargetRefusedError';
  }
}

/** The IANA range name of an address, with IPv4-mapped IPv6 (::ffff:10.0.0.1) read as its IPv4 address. */
export function addressRange(address: string): string {
  // Guard: a zone id (fe80::1%eth0) is link-local by definition.
  if (address.includes('%')) {
    return 'linkLocal';
  }
  return ipaddr.process(address).range();
}

/** True for every address hosted scans must never reach: anything not public unicast. */
export function isRestrictedAddress(address: string): boolean {
  return addressRange(address) !== 'unicast';
}

export interface ResolvedTarget {
  host: string;
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host) => dns.lookup(host, { all: true, verbatim: true });

export class TargetPolicy {
  constructor(
    readonly mode: ScanMode,
    private readonly resolver: Resolver = systemResolver,
  ) {}

  /** Throws unless this mode may connect to `address`. */
  assertAddress(address: string, target = address): void {
    if (!net.isIP(address)) {
      throw new TargetRefusedError(target, `not an IP address: ${address}`);
    }
    if (this.mode === 'hosted' && isRestrictedAddress(address)) {
      throw new TargetRefusedError(target, `${address} is ${addressRange(address)}, not a public address`);
    }
  }

  /**
   * Resolves a host name (or IP literal) once and checks every address it resolves to; the caller must
   * connect to the returned address, never resolve the name again.
   */
  async resolve(host: string): Promise<ResolvedTarget> {
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    const literal = net.isIP(bare);
    const addresses: LookupAddress[] = literal
      ? [{ address: bare, family: literal }]
      : await this.resolver(bare);
    if (addresses.length === 0) {
      throw new TargetRefusedError(host, 'name does not resolve');
    }
    // Guard: a name with one public and one private address (rebinding setups) is refused as a whole.
    for (const entry of addresses) {
      this.assertAddress(entry.address, host);
    }
    const first = addresses[0]!;
    return { host: bare, address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  /** Whether a URL is allowed at all (scheme and address), for redirects and discovered links. */
  async assertUrl(url: URL): Promise<ResolvedTarget> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TargetRefusedError(url.href, `scheme ${url.protocol} is not scanned`);
    }
    return this.resolve(url.hostname);
  }
}

/** A `lookup` for net/http/tls that always answers with an address resolved (and checked) beforehand. */
export function pinnedLookup(target: ResolvedTarget): net.LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      (callback as unknown as (err: null, addresses: LookupAddress[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
      return;
    }
    callback(null, target.address, target.family);
  };
}
