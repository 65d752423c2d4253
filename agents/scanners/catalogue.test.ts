// Every rule held to the catalogue's invariants.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { rootCauses } from '../pipeline/root-causes.ts';
import { retiredRuleIds, ruleCatalogue, ruleTables } from './catalogue.ts';
import { cvssBaseScore } from './core/cvss.ts';
import { checkRegistry } from './registry.ts';
import { renderRulesDoc } from './rules-doc.ts';

const ids = Object.keys(ruleCatalogue);

describe('the rule catalogue', () => {
  it('holds every rule once: no id is in two tables (a spread would silently replace one)', () => {
    const seen = new Map<string, string>();
    for (const table of ruleTables) {
      for (const id of Object.keys(table.rules)) {
        expect(seen.get(id), `${id} is in both ${seen.get(id)} and ${table.name}`).toBeUndefined();
        seen.set(id, table.name);
      }
    }
    expect(ids.length).toBe(seen.size);
    expect(ids.length).toBeGreaterThan(100);
  });

  it.each(ids)('%s: its CVSS vector parses, and its fields are whole', (id) => {
    const rule = ruleCatalogue[id as keyof typeof ruleCatalogue];
    expect(() => cvssBaseScore(rule.cvss)).not.toThrow();
    expect(rule.cvss).toMatch(/^CVSS:3\.1\//);
    expect(rule.title.length).toBeGreaterThan(5);
    expect(rule.title.length).toBeLessThanOrEqual(200);
    expect(rule.remediation.length).toBeGreaterThan(10);
    expect(rule.cwe).toMatch(/^CWE-\d+$/);
    expect(id).toMatch(/^(web|api|infra|tls)\.[a-z0-9]+(?:[.-][a-z0-9]+)*$/);
  });

  it.each(ids)('%s: a root cause covers it (it gets a recommendation of its own kind)', (id) => {
    const covering = rootCauses.filter((cause) =>
      cause.rules.some((r) => (r.endsWith('.') ? id.startsWith(r) : id === r)),
    );
    expect(covering.map((c) => c.key)).not.toEqual([]);
  });

  it.each(ids)('%s: a check of a scanner that files its table declares it', (id) => {
    const table = ruleTables.find((t) => id in t.rules)!;
    const declaring = table.scanners.flatMap((scanner) =>
      checkRegistry[scanner].filter((check) => check.rules.includes(id as never)).map((check) => check.id),
    );
    expect(declaring).not.toEqual([]);
  });

  it('has checks with unique ids, each declaring only rules of its own scanner', () => {
    for (const [scanner, checks] of Object.entries(checkRegistry)) {
      expect(new Set(checks.map((c) => c.id)).size).toBe(checks.length);
      for (const check of checks) {
        for (const rule of check.rules) {
          const table = ruleTables.find((t) => rule in t.rules);
          expect(table?.scanners, `${check.id} declares ${rule}`).toContain(scanner);
        }
      }
    }
  });

  it('is what docs/rules.md says (npm run gen:rules writes it)', () => {
    const committed = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderRulesDoc());
  });

  it('never uses a retired id again', () => {
    for (const id of Object.keys(retiredRuleIds)) {
      expect(ids).not.toContain(id);
    }
  });
});
