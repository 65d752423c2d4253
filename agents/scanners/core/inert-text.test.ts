import { describe, expect, it } from 'vitest';

import { findingFieldCaps, inertText } from './inert-text.ts';
import { ruleBook } from './rule.ts';

describe('inertText', () => {
  it('turns terminal escape sequences and other controls into visible escapes', () => {
    const banner = 'SSH-2.0-OpenSSH_9.2\u001b[2J\u001b[H\u001b[32mAll clear: no findings\u0007\r\n';
    const safe = inertText(banner, 500);
    expect(safe).toBe('SSH-2.0-OpenSSH_9.2\\x1b[2J\\x1b[H\\x1b[32mAll clear: no findings\\x07\\r\\n');
    // eslint-disable-next-line no-control-regex
    expect(safe).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('shows direction overrides, C1 controls and zero-width characters instead of applying them', () => {
    expect(inertText('evil\u202egnp.exe', 100)).toBe('evil\\u202egnp.exe');
    expect(inertText('a\u009bb\u200bc\ufeffd', 100)).toBe('a\\x9bb\\u200bc\\ufeffd');
  });

  it('replaces broken surrogate halves and keeps whole pairs', () => {
    expect(inertText('ok \ud83d\ude00 bad \ud83d end \ude00', 100)).toBe(
      'ok \ud83d\ude00 bad \ufffd end \ufffd',
    );
  });

  it('caps the length after escaping, never cutting inside an escape', () => {
    const escapes = '\u001b'.repeat(1000);
    const safe = inertText(escapes, 50);
    expect(safe.length).toBeLessThanOrEqual(50);
    expect(safe.endsWith('...')).toBe(true);
    expect(safe.slice(0, -3)).toMatch(/^(\\x1b)+$/);
    expect(inertText('x'.repeat(20), 20)).toBe('x'.repeat(20));
  });

  it('is applied to every field a target can reach when a finding is made', () => {
    const make = ruleBook({
      'test.rule': {
        title: 'A test rule',
        cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
        cwe: 'CWE-200',
        owasp: 'A05:2021 Security Misconfiguration',
        remediation: 'Fix it.',
        family: 'hardening',
      },
    });
    const finding = make('test.rule', {
      location: `http://127.0.0.1/\u001b[2J${'a'.repeat(2000)}`,
      evidence: `Server: \u001b]0;pwned\u0007${'b'.repeat(2000)}`,
      remediation: 'upgrade \u001b[31m now',
    });
    for (const field of ['location', 'evidence', 'remediation'] as const) {
      // eslint-disable-next-line no-control-regex
      expect(finding[field]).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(finding[field].length).toBeLessThanOrEqual(findingFieldCaps[field]);
    }
    expect(finding.location.startsWith('http://127.0.0.1/\\x1b[2J')).toBe(true);
  });
});
