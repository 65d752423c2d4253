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
    tool: 'ssh-audit',
    finding: /: using (weak elliptic curves|elliptic curves that are suspected as being backdoored)/,
    verdict: 'policy',
    why: "ssh-audit fails the NIST P-curves as suspect; that is its policy, not a known break, and OpenSSH's own defaults offer them",
  },
];

/** The verdict on a tool-only line, if someone has given one. */
export const reviewOf = (tool: string, finding: string): Review | undefined =>
  reviews.find((review) => review.tool === tool && review.finding.test(finding));
