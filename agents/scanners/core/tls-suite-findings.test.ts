// What a survey's accepted suites expose (tls-suite-findings.ts), on surveys written out by hand, and what
// each IANA name means (tls-suites.ts).
import { describe, expect, it } from 'vitest';

import { ALL_GROUPS, type ProtocolVersion } from './tls-hello.ts';
import { suiteFindings } from './tls-suite-findings.ts';
import { describeSuite, SUITES } from './tls-suites.ts';
import type { TlsSurvey } from './tls-survey.ts';

const code = (name: string) => [...SUITES.values()].find((s) => s.name === name)!.code;

function survey(
  accepted: Partial<Record<ProtocolVersion, string[]>>,
  extra: Partial<TlsSurvey> = {},
): TlsSurvey {
  const versions = (['SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const).map((version) => ({
    version,
    suites: (accepted[version] ?? []).map(code),
    complete: true,
    groups: ALL_GROUPS,
  }));
  return { versions, serverOrder: KEEPS, dhBits: null, certificates: [], stapled: false, ...extra };
}
const rules = (s: TlsSurvey) =>
  suiteFindings(s, 'x')
    .map((f) => f.rule_id)
    .sort();

const KEEPS = { keeps: true, first: 0xc02f, second: 0xcca8 };
const CLIENT = { ...KEEPS, keeps: false };
const MODERN = ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256'];

describe('suite meanings from IANA names', () => {
  it('reads key exchange, cipher and the weaknesses of each', () => {
    expect(describeSuite(0x0a, 'TLS_RSA_WITH_3DES_EDE_CBC_SHA')).toMatchObject({
      kx: 'RSA',
      block64: true,
      cbc: true,
      aead: false,
      ephemeral: false,
      anonymous: false,
    });
    expect(SUITES.get(code('TLS_DH_anon_WITH_AES_128_GCM_SHA256'))).toMatchObject({
      anonymous: true,
      aead: true,
      ephemeral: true,
      finiteFieldDhe: true,
    });
    expect(SUITES.get(code('TLS_ECDHE_ECDSA_WITH_NULL_SHA'))).toMatchObject({ nullCipher: true, cbc: false });
    expect(SUITES.get(code('TLS_DHE_DSS_EXPORT1024_WITH_RC4_56_SHA'))).toMatchObject({
      export: true,
      rc4: true,
    });
    expect(SUITES.get(code('TLS_ECDH_RSA_WITH_AES_128_CBC_SHA'))).toMatchObject({ ephemeral: false });
    expect(SUITES.get(0x1301)).toMatchObject({ tls13: true, aead: true, ephemeral: true });
  });

  it('holds every registry suite a scan must offer, once', () => {
    const names = [...SUITES.values()].map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    for (const needed of [
      'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
      'TLS_ECDHE_RSA_WITH_RC4_128_SHA',
      'TLS_RSA_EXPORT_WITH_DES40_CBC_SHA',
    ]) {
      expect(names).toContain(needed);
    }
    expect(SUITES.size).toBeGreaterThan(300);
  });
});

describe('findings from what the server accepts', () => {
  it('a modern TLS 1.2/1.3 server raises nothing, whoever picks the suite', () => {
    const modern = { 'TLSv1.2': MODERN, 'TLSv1.3': ['TLS_AES_128_GCM_SHA256'] };
    expect(rules(survey(modern))).toEqual([]);
    expect(rules(survey(modern, { serverOrder: CLIENT, dhBits: 4096 }))).toEqual([]);
  });

  it('SSLv3, TLS 1.0 with CBC, 3DES, RC4, EXPORT, NULL and anonymous suites', () => {
    const s = survey({
      SSLv3: ['TLS_RSA_EXPORT_WITH_RC4_40_MD5'],
      'TLSv1.0': [
        'TLS_RSA_WITH_AES_128_CBC_SHA',
        'TLS_RSA_WITH_NULL_SHA',
        'TLS_DH_anon_WITH_AES_128_CBC_SHA',
      ],
      'TLSv1.2': ['TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'TLS_RSA_WITH_RC4_128_SHA', ...MODERN],
    });
    expect(rules(s)).toEqual([
      'tls.anonymous-cipher',
      'tls.block64-cipher',
      'tls.cbc-tls10',
      'tls.export-cipher',
      'tls.legacy-protocol',
      'tls.null-cipher',
      'tls.rc4',
      'tls.sslv3',
    ]);
    const block64 = suiteFindings(s, 'x').find((f) => f.rule_id === 'tls.block64-cipher')!;
    expect(block64.evidence).toBe('accepted (64-bit block cipher): TLS 1.2: TLS_RSA_WITH_3DES_EDE_CBC_SHA');
  });

  it('CBC only and no forward secrecy, but only from enumerations that ran to the end', () => {
    const cbc = { 'TLSv1.2': ['TLS_RSA_WITH_AES_128_CBC_SHA256', 'TLS_RSA_WITH_AES_256_CBC_SHA256'] };
    expect(rules(survey(cbc))).toEqual(['tls.cbc-only', 'tls.no-forward-secrecy']);
    const cut = survey(cbc);
    cut.versions[4]!.complete = false; // TLS 1.3 timed out: it might have had AEAD and ECDHE suites
    expect(rules(cut)).toEqual([]);
  });

  it('a client-chosen order is reported only when weaker suites can win', () => {
    const mixed = { 'TLSv1.2': [...MODERN, 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA'] };
    expect(rules(survey(mixed, { serverOrder: CLIENT }))).toEqual(['tls.no-server-order']);
    expect(suiteFindings(survey(mixed, { serverOrder: CLIENT }), 'x')[0]!.evidence).toMatch(
      /^TLS 1\.2: the server took the client's first choice of TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 and TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 in either order; weaker suites it accepts: TLS 1\.2: TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA$/,
    );
    expect(rules(survey(mixed, { serverOrder: null }))).toEqual([]);
  });

  it('a DH group under 2048 bits', () => {
    const s = survey({ 'TLSv1.2': ['TLS_DHE_RSA_WITH_AES_128_GCM_SHA256'] }, { dhBits: 1024 });
    expect(suiteFindings(s, 'x').map((f) => f.evidence)).toEqual(['DHE key exchange with a 1024-bit prime']);
  });
});
