// The trust anchors a TLS chain is judged against: the operating system's store (the CA bundle OpenSSL
// reads on Debian, Ubuntu, Alpine, RHEL, Fedora, SUSE and macOS; Node's bundled Mozilla list where there
// is none, e.g. Windows), plus the extra anchors of VIGIL_SCAN_TLS_CA_FILE (an organisation's internal
// CA). The machine's store is only read, never changed.
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import tls from 'node:tls';

const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/ssl/cert.pem',
];

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every certificate of a PEM text; a block that does not parse is an error naming its position. */
export function pemCertificates(text: string): X509Certificate[] {
  return [...text.matchAll(PEM_BLOCK)].map((match, i) => {
    try {
      return new X509Certificate(match[0]);
    } catch (error) {
      throw new Error(`certificate ${i + 1} does not parse: ${(error as Error).message}`, { cause: error });
    }
  });
}

/** The extra anchors of `file`, or a clear error: unreadable, not PEM, or holding no certificate. */
export function readAnchorFile(file: string): X509Certificate[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
      cause: error,
    });
  }
  const anchors = pemCertificates(text);
  if (anchors.length === 0) {
    throw new Error(`${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  return anchors;
}

let system: { anchors: X509Certificate[]; source: string } | undefined;
let extra: { key: string; anchors: X509Certificate[] } | undefined;

function systemAnchors(): { anchors: X509Certificate[]; source: string } {
  if (!system) {
    const bundle = SYSTEM_BUNDLES.find((file) => existsSync(file));
    system = bundle
      ? { anchors: pemCertificates(readFileSync(bundle, 'utf8')), source: bundle }
      : {
          anchors: tls.rootCertificates.map((pem) => new X509Certificate(pem)),
          source: 'Node.js root store',
        };
  }
  return system;
}

export interface TrustStore {
  anchors: X509Certificate[];
  /** Where they came from, for evidence: "/etc/ssl/certs/ca-certificates.crt + /srv/ca.pem". */
  source: string;
}

/** The system anchors and those of `extraFile` (read again when the file changes). */
export function trustStore(extraFile?: string): TrustStore {
  const base = systemAnchors();
  if (!extraFile) {
    return base;
  }
  const key = `${extraFile}:${statSync(extraFile, { throwIfNoEntry: false })?.mtimeMs ?? 'missing'}`;
  if (extra?.key !== key) {
    extra = { key, anchors: readAnchorFile(extraFile) };
  }
  return { anchors: [...base.anchors, ...extra.anchors], source: `${base.source} + ${extraFile}` };
}
