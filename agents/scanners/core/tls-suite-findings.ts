// What the accepted versions and suites of a survey (tls-survey.ts) expose: SSLv3, TLS 1.0/1.1, NULL,
// anonymous, EXPORT, RC4 and 64-bit block suites, CBC with TLS 1.0 (BEAST) or CBC only (LUCKY13), no
// forward secrecy, a client-chosen order that lets weak suites win, and a small Diffie-Hellman group.
import type { Finding } from '../../../shared/findings.ts';
import type { ProtocolVersion } from './tls-hello.ts';
import { tlsFinding, type TlsRuleId } from './tls-rules.ts';
import { SUITES, suiteName, type Suite } from './tls-suites.ts';
import { accepted, type TlsSurvey } from './tls-survey.ts';

const LABEL: Record<ProtocolVersion, string> = {
  SSLv3: 'SSLv3',
  'TLSv1.0': 'TLS 1.0',
  'TLSv1.1': 'TLS 1.1',
  'TLSv1.2': 'TLS 1.2',
  'TLSv1.3': 'TLS 1.3',
};

interface Offer {
  version: ProtocolVersion;
  suite: Suite;
}

function offers(survey: TlsSurvey, pick: (s: Suite) => boolean, versions?: ProtocolVersion[]): Offer[] {
  return accepted(survey)
    .filter((v) => !versions || versions.includes(v.version))
    .flatMap((v) =>
      v.suites.flatMap((code) => SUITES.get(code) ?? []).map((suite) => ({ version: v.version, suite })),
    )
    .filter((o) => pick(o.suite));
}

/** "TLS 1.0: A, B; TLS 1.2: C", at most six names per version. */
function byVersion(list: Offer[]): string {
  const grouped = new Map<ProtocolVersion, string[]>();
  for (const { version, suite } of list) {
    grouped.set(version, [...(grouped.get(version) ?? []), suite.name]);
  }
  return [...grouped]
    .map(
      ([v, names]) =>
        `${LABEL[v]}: ${names.slice(0, 6).join(', ')}${names.length > 6 ? ` (+${names.length - 6} more)` : ''}`,
    )
    .join('; ');
}

/** A suite that is worse than an AEAD suite with an authenticated ephemeral key exchange. */
const weaker = (s: Suite) => !s.aead || !s.ephemeral || s.anonymous || s.nullCipher || s.export;

const CLASSES: [TlsRuleId, (s: Suite) => boolean, string][] = [
  ['tls.null-cipher', (s) => s.nullCipher, 'no encryption'],
  ['tls.anonymous-cipher', (s) => s.anonymous, 'no server authentication'],
  ['tls.export-cipher', (s) => s.export, 'export grade'],
  ['tls.rc4', (s) => s.rc4, 'RC4'],
  ['tls.block64-cipher', (s) => s.block64, '64-bit block cipher'],
];

export function suiteFindings(survey: TlsSurvey, location: string): Finding[] {
  const out: Finding[] = [];
  const add = (id: TlsRuleId, evidence: string) => out.push(tlsFinding(id, { location, evidence }));
  const speaks = new Map(accepted(survey).map((v) => [v.version, v]));
  // An absence (no AEAD, no forward secrecy) is concluded only from versions enumerated to the end.
  const complete = survey.versions.every((v) => v.complete);
  const sslv3 = speaks.get('SSLv3');
  if (sslv3) {
    add(
      'tls.sslv3',
      `the server answered an SSLv3 ClientHello with ServerHello (${sslv3.suites.length} suites)`,
    );
  }
  const legacy = (['TLSv1.0', 'TLSv1.1'] as const).filter((v) => speaks.has(v)).map((v) => LABEL[v]);
  if (legacy.length > 0) {
    add(
      'tls.legacy-protocol',
      `the server answered ${legacy.join(' and ')} ClientHellos with a ServerHello of that version`,
    );
  }
  for (const [id, pick, what] of CLASSES) {
    const found = offers(survey, pick);
    if (found.length > 0) {
      add(id, `accepted (${what}): ${byVersion(found)}`);
    }
  }
  const beast = offers(survey, (s) => s.cbc, ['SSLv3', 'TLSv1.0']);
  if (beast.length > 0) {
    add('tls.cbc-tls10', `CBC suites with a predictable IV: ${byVersion(beast)}`);
  }
  const all = offers(survey, () => true);
  if (complete && all.some((o) => o.suite.cbc) && !all.some((o) => o.suite.aead)) {
    add('tls.cbc-only', `no AEAD suite accepted; CBC: ${byVersion(offers(survey, (s) => s.cbc))}`);
  }
  if (complete && all.length > 0 && !all.some((o) => o.suite.ephemeral && !o.suite.anonymous)) {
    add('tls.no-forward-secrecy', `no ECDHE, DHE or TLS 1.3 suite accepted; accepted: ${byVersion(all)}`);
  }
  const classic = accepted(survey)
    .filter((v) => v.version !== 'TLSv1.3')
    .at(-1);
  // A client's choice is harmless when every suite the server accepts is strong (Mozilla's guidance);
  // with weaker suites accepted, a client that lists them first gets them.
  const weak = classic ? offers(survey, weaker, [classic.version]) : [];
  const order = survey.serverOrder;
  if (order && !order.keeps && classic && weak.length > 0) {
    add(
      'tls.no-server-order',
      `${LABEL[classic.version]}: the server took the client's first choice of ${suiteName(order.first)} and ` +
        `${suiteName(order.second)} in either order; weaker suites it accepts: ${byVersion(weak)}`,
    );
  }
  if (survey.dhBits !== null && survey.dhBits < 2048) {
    add('tls.weak-dh', `DHE key exchange with a ${survey.dhBits}-bit prime`);
  }
  return out;
}
