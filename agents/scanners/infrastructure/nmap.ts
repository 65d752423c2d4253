// Optional version names from `nmap -sV` when nmap is installed; the scanner works fully without it.
// VIGIL_SCAN_NMAP=off skips it (tests do, to stay deterministic and fast).
import { execFile } from 'node:child_process';
import { scannerSettings } from '../core/settings.ts';

export async function nmapVersions(
  address: string,
  ports: number[],
  signal?: AbortSignal,
): Promise<Map<number, string>> {
  const versions = new Map<number, string>();
  // Guard: a huge list of open ports (a tarpit answering everything) is not worth minutes of nmap.
  if (!scannerSettings().VIGIL_SCAN_NMAP || ports.length === 0 || ports.length > 100) {
    return versions;
  }
  const xml = await new Promise<string>((resolve) => {
    execFile(
      'nmap',
      [
        '-sV',
        '--version-light',
        '-Pn',
        '-sT',
        '-n',
        '--host-timeout',
        '90s',
        '-p',
        ports.join(','),
        '-oX',
        '-',
        address,
      ],
      { signal, timeout: 120_000, maxBuffer: 4_000_000 },
      // nmap missing or failing only means no version names; the scan result stands without them.
      (error, stdout) => resolve(error ? '' : stdout),
    );
  });
  for (const match of xml.matchAll(/<port protocol="tcp" portid="(\d+)">[\s\S]*?<service ([^>]*)>/g)) {
    const attrs = new Map([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!] as const));
    const name = ['product', 'version', 'extrainfo']
      .map((key) => attrs.get(key))
      .filter(Boolean)
      .join(' ');
    if (name) {
      // nmap's names quote what the service sent; the finding they join makes them inert (rule.ts).
      versions.set(Number(match[1]), name.slice(0, 120));
    }
  }
  return versions;
}
