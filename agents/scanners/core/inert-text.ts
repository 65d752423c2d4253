// What a target sends ends up in findings (banners, headers, page text, error messages), and findings end
// up on terminals, in the app, in PDF and CSV reports and in e-mails. This is the one place that makes
// such text inert: control characters (terminal escape sequences among them), invisible direction
// overrides and broken surrogates become visible escapes, and every field has a length cap. Every finding
// passes through it where it is made (rule.ts), so no banner can clear a terminal or reorder what a
// reader sees.

/** Characters that act instead of being shown: C0 and C1 controls, DEL, line and paragraph separators,
 * bidirectional overrides and isolates, zero-width joiners and the byte-order mark. */
// eslint-disable-next-line no-control-regex
const ACTIVE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]/g;

/** A surrogate half without its partner (not text; some renderers and PDF writers fail on it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named) {
    return named;
  }
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` made inert and at most `maxLength` characters long (an ellipsis marks a cut). Escapes are
 * counted in the length, so a string of escape sequences cannot grow past the cap.
 */
export function inertText(text: string, maxLength: number): string {
  const safe = text.replace(LONE_SURROGATE, '\ufffd').replace(ACTIVE, escapeOne);
  if (safe.length <= maxLength) {
    return safe;
  }
  // Guard: never cut inside an escape or a surrogate pair, which would leave half of one behind.
  let cut = safe.slice(0, Math.max(0, maxLength - 3));
  cut = cut.replace(/\\(?:x[0-9a-f]{0,1}|u[0-9a-f]{0,3})?$/, '');
  if (/[\ud800-\udbff]$/.test(cut)) {
    cut = cut.slice(0, -1);
  }
  return `${cut}...`;
}

/** Caps of a finding's fields (characters). */
export const findingFieldCaps = {
  rule_id: 80,
  title: 200,
  location: 600,
  evidence: 500,
  remediation: 2000,
} as const;
