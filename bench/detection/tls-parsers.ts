// What testssl.sh and sslscan report, as our TLS rule ids (bench/detection/classes/tls.ts). Only what a
// tool itself flags counts (testssl.sh: a severity above OK/INFO; sslscan: a cipher strength it rates
// null, anonymous, weak or medium, with the cipher's name saying which class; an enabled old protocol; a
// DH group, key size, signature or expiry it marks), never our own reading of its plain list of ciphers.
export interface TestsslItem {
  id: string;
  severity: string;
  finding: string;
}

/** What testssl.sh rates a problem: any severity above OK and INFO. */
const testsslFlagged = (items: TestsslItem[]) =>
  items.filter((i) => !['OK', 'INFO', 'DEBUG'].includes(i.severity));

/** testssl.sh's JSON items (`--jsonfile`) that it rates a problem, as our rule ids. */
export function testsslRules(items: TestsslItem[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of testsslFlagged(items)) {
    const rule = testsslRuleOf(item);
    if (rule) {
      out.set(rule, `${item.id}: ${item.finding}`);
    }
  }
  // A self-signed certificate has nobody to revoke it: testssl.sh's revocation line is then the same
  // problem as the self-signature, counted once.
  if (out.has('tls.self-signed')) {
    out.delete('tls.no-revocation-info');
  }
  return out;
}

/** The problems testssl.sh flagged that map to none of our rules, as `id (severity): finding`. */
export function testsslToolOnly(items: TestsslItem[]): string[] {
  return testsslFlagged(items)
    .filter((item) => !testsslRuleOf(item))
    .map((item) => `${item.id} (${item.severity}): ${item.finding}`);
}

function testsslRuleOf(item: TestsslItem): string {
  const id = item.id.replace(/ <cert#\d+>$/, '');
  const offered = /^offered/.test(item.finding);
  return (
    (
      {
        SSLv3: offered ? 'tls.sslv3' : '',
        TLS1: offered ? 'tls.legacy-protocol' : '',
        TLS1_1: offered ? 'tls.legacy-protocol' : '',
        cipherlist_NULL: offered ? 'tls.null-cipher' : '',
        cipherlist_aNULL: offered ? 'tls.anonymous-cipher' : '',
        cipherlist_EXPORT: offered ? 'tls.export-cipher' : '',
        cipherlist_3DES_IDEA: offered ? 'tls.block64-cipher' : '',
        SWEET32: 'tls.block64-cipher',
        RC4: 'tls.rc4',
        BEAST_CBC_TLS1: 'tls.cbc-tls10',
        BEAST_CBC_SSL3: 'tls.cbc-tls10',
        PFS: /No ciphers/.test(item.finding) ? 'tls.no-forward-secrecy' : '',
        FS: /No ciphers/.test(item.finding) ? 'tls.no-forward-secrecy' : '',
        cipher_order: /NOT a cipher order/.test(item.finding) ? 'tls.no-server-order' : '',
        'LOGJAM-common_primes': 'tls.weak-dh',
        LOGJAM: 'tls.weak-dh',
        DH_groups: 'tls.weak-dh',
        cert_keySize: 'tls.weak-key',
        cert_signatureAlgorithm: 'tls.weak-signature',
        cert_trust: /does not match/.test(item.finding) ? 'tls.hostname-mismatch' : '',
        cert_chain_of_trust: /self signed/.test(item.finding) ? 'tls.self-signed' : 'tls.untrusted-chain',
        cert_expirationStatus: /expired/.test(item.finding) ? 'tls.cert-expired' : 'tls.cert-expiring',
        OCSP_stapling: /not offered/.test(item.finding) ? 'tls.no-ocsp-stapling' : '',
        cert_revocation: /Neither CRL nor OCSP/.test(item.finding) ? 'tls.no-revocation-info' : '',
        certs_list_ordering_problem: /^yes/.test(item.finding) ? 'tls.chain-order' : '',
      } as Record<string, string>
    )[id] ?? ''
  );
}

const attrs = (tag: string) =>
  Object.fromEntries([...tag.matchAll(/(\w[\w-]*)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));

/** What sslscan rates one cipher (null, anonymous, weak or medium: flagged), as our rules it stands for. */
function sslscanCipher(tag: string): { what: string; flagged: boolean; rules: string[] } {
  const c = attrs(tag);
  const name = c.cipher ?? '';
  const flagged = c.strength !== 'strong' && c.strength !== 'acceptable';
  const checks: [string, boolean][] = [
    ['tls.null-cipher', c.strength === 'null'],
    ['tls.anonymous-cipher', c.strength === 'anonymous'],
    ['tls.export-cipher', flagged && /EXP/.test(name)],
    ['tls.rc4', flagged && /RC4/.test(name)],
    ['tls.block64-cipher', flagged && /3DES|DES-CBC|IDEA|RC2/.test(name)],
    ['tls.weak-dh', Number(c.dhebits ?? 4096) < 2048],
  ];
  return {
    what: `${c.sslversion} ${name} (${c.strength})`,
    flagged,
    rules: checks.filter(([, hit]) => hit).map(([rule]) => rule),
  };
}

/** sslscan's XML (`--xml=-`): what it marks as weak, as our rule ids. */
export function sslscanRules(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [tag] of xml.matchAll(/<protocol [^>]*\/>/g)) {
    const p = attrs(tag);
    if (p.enabled === '1' && p.type === 'ssl' && p.version === '3') {
      out.set('tls.sslv3', 'SSLv3 enabled');
    }
    if (p.enabled === '1' && p.type === 'tls' && ['1.0', '1.1'].includes(p.version ?? '')) {
      out.set('tls.legacy-protocol', `TLSv${p.version} enabled`);
    }
  }
  for (const [tag] of xml.matchAll(/<cipher [^>]*\/>/g)) {
    const cipher = sslscanCipher(tag);
    for (const rule of cipher.rules) {
      out.set(rule, cipher.what);
    }
  }
  const signature = /<signature-algorithm>([^<]+)</.exec(xml)?.[1] ?? '';
  if (/sha1|md5/i.test(signature)) {
    out.set('tls.weak-signature', signature);
  }
  const pk = attrs(/<pk [^>]*\/>/.exec(xml)?.[0] ?? '');
  if (pk.type === 'RSA' && Number(pk.bits) < 2048) {
    out.set('tls.weak-key', `RSA ${pk.bits}`);
  }
  if (/<expired>true</.test(xml)) {
    out.set('tls.cert-expired', 'expired');
  }
  if (/<self-signed>true</.test(xml)) {
    out.set('tls.self-signed', 'self-signed');
  }
  return out;
}

/**
 * What sslscan flags that maps to none of our rules: a cipher it rates weak that none of our cipher rules
 * name, insecure renegotiation, compression, Heartbleed.
 */
export function sslscanToolOnly(xml: string): string[] {
  const out: string[] = [];
  for (const [tag] of xml.matchAll(/<cipher [^>]*\/>/g)) {
    const cipher = sslscanCipher(tag);
    if (cipher.flagged && cipher.rules.length === 0) {
      out.push(`cipher ${cipher.what}`);
    }
  }
  for (const [tag] of xml.matchAll(/<renegotiation [^>]*\/>/g)) {
    const r = attrs(tag);
    if (r.supported === '1' && r.secure !== '1') {
      out.push('renegotiation: insecure');
    }
  }
  if (/<compression supported="1"/.test(xml)) {
    out.push('compression: supported');
  }
  for (const [tag] of xml.matchAll(/<heartbleed [^>]*vulnerable="1"[^>]*\/>/g)) {
    out.push(`heartbleed: ${attrs(tag).sslversion} vulnerable`);
  }
  return out;
}
