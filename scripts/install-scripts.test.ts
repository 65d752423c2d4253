import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  allowScripts: Record<string, boolean>;
  '//': { allowScripts: Record<string, string> };
};

// npm 11 skips dependency install scripts that allowScripts does not name and ends `npm install` with a
// warning listing them: a fresh clone must print none, and each decision must say why it was taken.
describe('dependency install scripts', () => {
  it('are each allowed or denied in allowScripts, with a reason beside it', () => {
    expect(Object.keys(pkg['//'].allowScripts).sort()).toEqual(Object.keys(pkg.allowScripts).sort());
    for (const [name, allowed] of Object.entries(pkg.allowScripts)) {
      expect(pkg['//'].allowScripts[name]).toMatch(allowed ? /^allowed: / : /^denied: /);
    }
  });

  it('leave nothing unreviewed for npm install-scripts ls', () => {
    const out = execFileSync('npm', ['install-scripts', 'ls'], { cwd: root, encoding: 'utf8' });
    expect(out).toContain('No packages with unreviewed install scripts');
  });
});
