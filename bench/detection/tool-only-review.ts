// The verdicts on what a reference tool flags that maps to none of our rules (ToolRun.toolOnly), read by a
// person from the tool's own explanation and the fixture's configuration. A tool-only finding without a
// verdict fails its class in the detection bench until someone reviews it here; one we miss counts
// against our recall. Each verdict says why, in terms a reader can check.

export type Verdict =
  /** A real problem of the fixture that no rule of ours reports: counts against us. */
  | 'we-miss'
  /** The fixture does not have it. */
  | 'tool-false-positive'
  /** True, but advice or a policy we do not count as a weakness. */
  | 'policy'
  /** One of our rules of this class reports the same problem under another name. */
  | 'covered'
  /** A check of another of our scanners, not of this class's scans. */
  | 'other-scanner';

export interface Review {
  tool: string;
  /** Matches the tool-only line, as the tool's parser writes it. */
  finding: RegExp;
  verdict: Verdict;
  why: string;
}

export const reviews: readonly Review[] = [
  {
    tool: 'testssl.sh',
    finding: /^HSTS \(\w+\): not offered/,
    verdict: 'other-scanner',
    why: 'HSTS is a header of HTTP responses: the web scanner reports it (web.header.hsts-missing); these fixtures are TLS ports',
  },
  {
    tool: 'testssl.sh',
    finding: /^BEAST \(LOW\): VULNERABLE -- but also supports higher protocols/,
    verdict: 'covered',
    why: 'BEAST needs CBC suites on TLS 1.0, which tls.cbc-tls10 reports (testssl.sh says so too in its BEAST_CBC_TLS1 item, which maps to it)',
  },
  {
    tool: 'testssl.sh',
    finding: /^LUCKY13 \(LOW\): potentially vulnerable, uses TLS CBC ciphers/,
    verdict: 'policy',
    why: 'flags any CBC suite; the timing attack is fixed in the TLS libraries (OpenSSL, GnuTLS). A server with nothing but CBC suites is tls.cbc-only',
  },
  {
    tool: 'testssl.sh',
    finding: /^cipherlist_AVERAGE \(LOW\): offered/,
    verdict: 'policy',
    why: "testssl.sh's 'average' class (CBC suites with SHA-1 or SHA-2, no AEAD) is acceptable in current guidance; the weaker classes are our cipher rules",
  },
  {
    tool: 'testssl.sh',
    finding: /^cipherlist_LOW \(HIGH\): offered/,
    verdict: 'covered',
    why: 'its low-grade class is 64-bit block ciphers, DES, RC2/RC4 and MD5 suites: tls.block64-cipher, tls.rc4 and tls.export-cipher report them (on the GnuTLS fixture tls.block64-cipher and tls.rc4)',
  },
  {
    tool: 'testssl.sh',
    finding: /^cipherlist_STRONG \(MEDIUM\): not offered/,
    verdict: 'covered',
    why: 'no AEAD suite with forward secrecy offered: tls.no-forward-secrecy and tls.cbc-only report it',
  },
  {
    tool: 'testssl.sh',
    finding: /^secure_client_renego \(HIGH\): VULNERABLE/,
    verdict: 'we-miss',
    why: 'the server accepts renegotiation started by the client, so one client can make it redo the costly side of a handshake again and again (a denial of service); no rule of ours tries it',
  },
  {
    tool: 'testssl.sh',
    finding: /^security_headers \(MEDIUM\): --$/,
    verdict: 'other-scanner',
    why: "no HTTP security headers on the TLS port's answer: the web scanner judges each header (web.header.*); these are TLS ports",
  },
  {
    tool: 'testssl.sh',
    finding: /^cert_notAfter \(CRITICAL\): /,
    verdict: 'covered',
    why: 'the end date of an expired certificate: tls.cert-expired reports it',
  },
  {
    tool: 'testssl.sh',
    finding: /^cert_validityPeriod \(HIGH\): \d+ days/,
    verdict: 'policy',
    why: "CA/Browser Forum's limit on the lifetime of publicly trusted certificates; a self-signed certificate (the only one it flags here, Debian's snakeoil) is already tls.self-signed",
  },
  {
    tool: 'testssl.sh',
    finding: /^certs_list_ordering_problem \(LOW\): yes/,
    verdict: 'covered',
    why: 'the certificates sent out of order: tls.chain-order (the parser maps it; kept for runs of older parsers)',
  },
  {
    tool: 'testssl.sh',
    finding: /^TLS1_1 \(CRITICAL\): TLSv1\.1 is not offered, and downgraded to a weaker protocol/,
    verdict: 'covered',
    why: 'a server that speaks only TLS 1.0 answers a TLS 1.1 hello with TLS 1.0, as version negotiation requires: tls.legacy-protocol',
  },
  {
    tool: 'testssl.sh',
    finding: /^TLS1_2 \(MEDIUM\): not offered and downgraded to a weaker protocol/,
    verdict: 'covered',
    why: 'a server without TLS 1.2 (TLS 1.0 or 1.1 only): tls.legacy-protocol reports the old versions it speaks',
  },
  {
    tool: 'testssl.sh',
    finding: /^TLS1_2 \(MEDIUM\): not offered$/,
    verdict: 'tool-false-positive',
    why: "on the 512-bit DH server, whose TLS 1.2 sslscan and our survey see: testssl.sh's OpenSSL 3 refuses the group and cannot connect",
  },
  {
    tool: 'testssl.sh',
    finding: /^TLS1_3 \(LOW\): not offered/,
    verdict: 'policy',
    why: 'TLS 1.3 is advised, not required; TLS 1.2 with AEAD suites is not a weakness',
  },
  {
    tool: 'testssl.sh',
    finding:
      /^(optimal_proto|cipher_order|secure_renego|sessionresumption_ID|protocol_negotiated|cipher_negotiated|scanProblem|CRIME_TLS|fallback_SCSV) \(WARN\): /,
    verdict: 'tool-false-positive',
    why: "testssl.sh's own OpenSSL 3 cannot connect with what the server offers (RC4, 3DES, NULL only, a 512-bit group, TLS 1.0/1.1 only): a warning about the tool's client, not a problem of the server",
  },
  {
    tool: 'testssl.sh',
    finding: /^cipher_negotiated \(LOW\): .*\(cbc\)$/,
    verdict: 'covered',
    why: 'the suite negotiated by default is CBC because the server has no other: tls.cbc-only',
  },
  {
    tool: 'ssh-audit',
    finding: /: using (weak elliptic curves|elliptic curves that are suspected as being backdoored)/,
    verdict: 'policy',
    why: "ssh-audit fails the NIST P-curves as suspect; that is its policy, not a known break, and OpenSSH's own defaults offer them",
  },
  {
    tool: 'wapiti',
    finding: /^HTTP Secure Headers: X-XSS-Protection/,
    verdict: 'policy',
    why: "X-XSS-Protection drove the browsers' XSS auditors, which they have all removed; current advice is not to send it (or to send 0), so its absence is no weakness",
  },
  {
    tool: 'wapiti',
    finding: /^anomaly Internal Server Error: /,
    verdict: 'policy',
    why: 'a bare HTTP 500 to an attack payload shows nothing by itself; what it shows is judged by web.error.verbose (a stack trace or debug page), and by the injection checks when the payload took effect',
  },
  {
    tool: 'wapiti',
    finding: /^anomaly Resource consumption: /,
    verdict: 'policy',
    why: 'an answer slower than usual to one payload, with no proof behind it; time-based injection is judged by measured, repeated delays (web.sqli.time, web.command-injection)',
  },
];

/** The verdict on a tool-only line, if someone has given one; a review of a tool holds for its variants ("wapiti (given …)"). */
export const reviewOf = (tool: string, finding: string): Review | undefined =>
  reviews.find(
    (review) => (review.tool === tool || tool.startsWith(`${review.tool} `)) && review.finding.test(finding),
  );
