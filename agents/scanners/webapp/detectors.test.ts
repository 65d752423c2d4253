import { describe, expect, it } from 'vitest';

import { findSqlError } from '../core/sql-errors.ts';
import { findStackTrace } from '../core/stack-trace.ts';
import { outdatedSsh } from '../infrastructure/ssh-checks.ts';
import { parseHtml } from './html.ts';
import { mask, secretFindings } from './secrets.ts';

describe('secret detection', () => {
  it('masks what it reports and ignores documentation example keys', () => {
    const findings = secretFindings(
      '/a.js',
      'key="AKIAQ3EGRZ7LPKXW4M2B" example="AKIAIOSFODNN7EXAMPLE" gh="ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"',
    );
    expect(findings.map((f) => f.rule_id)).toEqual(['web.secret.aws-key', 'web.secret.token']);
    expect(findings[0]!.evidence).not.toContain('AKIAQ3EGRZ7LPKXW4M2B');
    expect(mask('AKIAQ3EGRZ7LPKXW4M2B')).toBe('AKIAQ3…2B');
    expect(secretFindings('/a', 'AKIAIOSFODNN7EXAMPLE')).toEqual([]);
  });
});

describe('error signatures', () => {
  it('recognises SQL errors of the common databases and not ordinary text', () => {
    expect(findSqlError('ERROR: syntax error at or near "\'" LINE 1')?.database).toBe('PostgreSQL');
    expect(findSqlError('SQLSTATE[42000]: Syntax error')?.database).toBe('generic');
    expect(findSqlError('ORA-01756: quoted string not properly terminated')?.database).toBe('Oracle');
    expect(findSqlError('<p>No products match your search.</p>')).toBeNull();
  });

  it('recognises stack traces', () => {
    expect(findStackTrace('Error: x\n    at handler (/srv/app.js:12:20)')).toMatch(/app\.js:12:20/);
    expect(findStackTrace('Traceback (most recent call last):\n  File "x.py"')).toBeTruthy();
    expect(findStackTrace('{"error":"bad request"}')).toBeNull();
  });

  it('flags old SSH servers only', () => {
    expect(outdatedSsh('SSH-2.0-OpenSSH_7.4')).toMatch(/older than 8.0/);
    // 1.99 announces protocol 1 compatibility.
    expect(outdatedSsh('SSH-1.99-OpenSSH_3.9p1')).toMatch(/protocol 1/);
    expect(outdatedSsh('SSH-1.5-Cisco-1.25')).toMatch(/protocol 1/);
    expect(outdatedSsh('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3')).toBeNull();
    expect(outdatedSsh('SSH-2.0-dropbear_2019.78')).toMatch(/Dropbear/);
  });
});

describe('parseHtml', () => {
  it('collects links, forms with fields, scripts and sub-resources resolved against the page', () => {
    const facts = parseHtml(
      '<a href="/a#x">a</a><form action="s" method="POST"><input name="q"><textarea name="t"></textarea></form><script src="//cdn.example/x.js"></script><script>var a=1</script><img src="http://img.example/p.png"><meta name="generator" content="Hugo 0.1">',
      new URL('https://site.example/dir/page'),
    );
    expect(facts.links.map((u) => u.href)).toEqual(['https://site.example/a']);
    expect(facts.forms).toEqual([
      { action: new URL('https://site.example/dir/s'), method: 'POST', fields: ['q', 't'] },
    ]);
    expect(facts.scripts.map((s) => s.src?.href ?? s.inline)).toEqual([
      'https://cdn.example/x.js',
      'var a=1',
    ]);
    expect(facts.resources.map((u) => u.protocol)).toEqual(['https:', 'http:']);
    expect(facts.generator).toBe('Hugo 0.1');
  });
});
