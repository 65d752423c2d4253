// The certificates of badssl.com's test cases, made again here with the openssl command line the way its
// certificate Makefile makes them (a root, an intermediate under it, one intermediate signed with SHA-1,
// an untrusted root, and leaves of each key type and digest), for the outside TLS corpus. Leaves name
// `*.badssl.test` and, so that a scan of 127.0.0.1 is the right host, IP 127.0.0.1 (except the wrong-host
// case). The local root plays badssl.com's "test set" root, which its own docs install as trusted.
// Keys are 2048 bits where badssl.com uses 4096 for its CAs: the difference judges nothing and saves
// seconds per bench run.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const openssl = (cwd: string, args: string[]) => execFileSync('openssl', args, { cwd, stdio: 'pipe' });

export type KeyKind = 'rsa1024' | 'rsa2048' | 'rsa4096' | 'ecc256' | 'ecc384';
export type Digest = 'sha256' | 'sha384' | 'sha1' | 'md5';

interface Ca {
  cert: string;
  key: string;
  dir: string;
}

export interface BadsslPki {
  dir: string;
  /** The trusted root, as VIGIL_SCAN_TLS_CA_FILE and testssl.sh's --add-ca take it. */
  rootFile: string;
  /** A leaf certificate with its chain file: the leaf then what `chain` lists, in that order. */
  leaf(name: string, spec: LeafSpec): { cert: string; key: string; chain: string };
  remove(): void;
}

export interface LeafSpec {
  key: KeyKind;
  digest: Digest;
  /** Which CA signs it; `self` makes it self-signed. */
  issuer: 'intermediate' | 'sha1-intermediate' | 'untrusted-root' | 'self';
  /**
   * What follows the leaf in the file nginx sends: the intermediate (default), nothing, or the root and
   * then the intermediate (nginx refuses a file whose first certificate is not the key's, so the leaf stays
   * first and the order is broken after it).
   */
  chain?: 'full' | 'leaf-only' | 'root-first';
  /** No IP 127.0.0.1 in subjectAltName: a scan of 127.0.0.1 is the wrong host. */
  wrongHost?: boolean;
  /**
   * A CRL distribution point in the leaf, as the publicly issued certificates of badssl.com's good cases
   * carry; the corpus CA leaves it out otherwise (a certificate nobody can revoke).
   */
  revocable?: boolean;
  /** openssl ca -startdate/-enddate (YYYYMMDDHHMMSSZ). */
  dates?: [string, string];
}

const subject = (cn: string) => `/C=US/ST=California/L=San Francisco/O=BadSSL/CN=${cn}`;

function newKey(dir: string, name: string, kind: KeyKind): string {
  const key = path.join(dir, `${name}.key`);
  if (kind.startsWith('rsa')) {
    openssl(dir, ['genrsa', '-out', key, kind.slice(3)]);
  } else {
    const curve = kind === 'ecc256' ? 'prime256v1' : 'secp384r1';
    openssl(dir, ['ecparam', '-name', curve, '-genkey', '-noout', '-out', key]);
  }
  return key;
}

const caConf = (dir: string) => `[ca]
default_ca = badssl
[badssl]
database = ${dir}/index.txt
new_certs_dir = ${dir}/issued
rand_serial = yes
policy = any
copy_extensions = copy
unique_subject = no
default_days = 730
[any]
commonName = supplied
[req_v3_usr]
basicConstraints = CA:FALSE
[req_v3_ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
`;

function caDir(root: string, name: string): string {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'issued'), { recursive: true });
  writeFileSync(path.join(dir, 'index.txt'), '');
  writeFileSync(path.join(dir, 'ca.conf'), caConf(dir));
  return dir;
}

function selfSignedCa(root: string, name: string, cn: string): Ca {
  const dir = caDir(root, name);
  const key = newKey(dir, 'ca', 'rsa2048');
  const cert = path.join(dir, 'ca.crt');
  openssl(
    dir,
    ['req', '-new', '-x509', '-days', '7300', '-sha256', '-key', key, '-subj', subject(cn)]
      .concat([
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign',
      ])
      .concat(['-out', cert]),
  );
  return { cert, key, dir };
}

/** Signs `csr` with `ca` (openssl ca, so that digest and dates are ours to choose). */
function sign(
  ca: Ca,
  csr: string,
  out: string,
  digest: Digest,
  extensions: string,
  dates?: [string, string],
): void {
  openssl(
    ca.dir,
    ['ca', '-batch', '-notext', '-config', path.join(ca.dir, 'ca.conf'), '-cert', ca.cert]
      .concat(['-keyfile', ca.key, '-md', digest, '-extensions', extensions, '-in', csr, '-out', out])
      .concat(dates ? ['-startdate', dates[0], '-enddate', dates[1]] : ['-days', '730']),
  );
}

function intermediate(root: string, name: string, parent: Ca, digest: Digest): Ca {
  const dir = caDir(root, name);
  const key = newKey(dir, 'ca', 'rsa2048');
  const csr = path.join(dir, 'ca.csr');
  openssl(dir, [
    'req',
    '-new',
    '-key',
    key,
    '-subj',
    subject(`BadSSL Intermediate Certificate Authority (${name})`),
    '-out',
    csr,
  ]);
  const cert = path.join(dir, 'ca.crt');
  sign(parent, csr, cert, digest, 'req_v3_ca');
  return { cert, key, dir };
}

export function makeBadsslPki(): BadsslPki {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-badssl-pki-'));
  const root = selfSignedCa(dir, 'root', 'BadSSL Root Certificate Authority');
  const untrusted = selfSignedCa(dir, 'untrusted-root', 'BadSSL Untrusted Root Certificate Authority');
  const inter = intermediate(dir, 'intermediate', root, 'sha256');
  const sha1Inter = intermediate(dir, 'sha1-intermediate', root, 'sha1');
  const issuers: Record<Exclude<LeafSpec['issuer'], 'self'>, Ca> = {
    intermediate: inter,
    'sha1-intermediate': sha1Inter,
    'untrusted-root': untrusted,
  };
  const leaves = path.join(dir, 'leaves');
  mkdirSync(leaves);
  return {
    dir,
    rootFile: root.cert,
    leaf(name, spec) {
      const key = newKey(leaves, name, spec.key);
      const cert = path.join(leaves, `${name}.crt`);
      const san = `subjectAltName=DNS:*.badssl.test,DNS:badssl.test${spec.wrongHost ? '' : ',IP:127.0.0.1'}`;
      if (spec.issuer === 'self') {
        openssl(
          leaves,
          ['req', '-new', '-x509', '-days', '730', `-${spec.digest}`, '-key', key].concat([
            '-subj',
            subject('*.badssl.test'),
            '-addext',
            san,
            '-addext',
            'basicConstraints=CA:FALSE',
            '-out',
            cert,
          ]),
        );
      } else {
        const csr = path.join(leaves, `${name}.csr`);
        openssl(leaves, [
          'req',
          '-new',
          '-key',
          key,
          '-subj',
          subject('*.badssl.test'),
          '-addext',
          san,
          ...(spec.revocable
            ? ['-addext', 'crlDistributionPoints=URI:http://crl.badssl.test/intermediate.crl']
            : []),
          '-out',
          csr,
        ]);
        sign(issuers[spec.issuer], csr, cert, spec.digest, 'req_v3_usr', spec.dates);
      }
      const chain = path.join(leaves, `${name}.chain.pem`);
      const leafPem = readFileSync(cert, 'utf8');
      const caPem =
        spec.issuer === 'self' || spec.issuer === 'untrusted-root'
          ? ''
          : readFileSync(issuers[spec.issuer].cert, 'utf8');
      const order = spec.chain ?? 'full';
      writeFileSync(
        chain,
        order === 'leaf-only'
          ? leafPem
          : order === 'root-first'
            ? leafPem + readFileSync(root.cert, 'utf8') + caPem
            : leafPem + caPem,
      );
      return { cert, key, chain };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

let pki: BadsslPki | undefined;
/** The corpus's PKI, made once per process. */
export function badsslPki(): BadsslPki {
  if (!pki) {
    const made = makeBadsslPki();
    process.once('exit', () => made.remove());
    pki = made;
  }
  return pki;
}

/**
 * Makes our scans trust the corpus root beside whatever other bench classes trust: the scanners read the
 * one file VIGIL_SCAN_TLS_CA_FILE names (again whenever it changes), so the root is added to that file, or
 * the variable set to the root's own file when no class set it.
 */
export function trustBadsslRoot(): void {
  const root = readFileSync(badsslPki().rootFile, 'utf8');
  const file = process.env.VIGIL_SCAN_TLS_CA_FILE;
  if (!file || !existsSync(file)) {
    process.env.VIGIL_SCAN_TLS_CA_FILE = badsslPki().rootFile;
  } else if (!readFileSync(file, 'utf8').includes(root.trim())) {
    appendFileSync(file, `\n${root}`);
  }
}

/** A Diffie-Hellman group of `bits` (badssl.com's dh480/dh512/dh1024 cases), made by openssl. */
export function dhParams(file: string, bits: number): string {
  if (!existsSync(file)) {
    execFileSync('openssl', ['dhparam', '-out', file, String(bits)], { stdio: 'pipe' });
  }
  return file;
}
