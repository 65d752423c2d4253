// The one catalogue of rule ids: every rule any scanner can file, by the table it lives in. A finding's
// identity hashes its rule id (pipeline/fingerprint.ts), so an id is never renamed or reused: a rule that
// goes away moves to `retiredRuleIds`, and findings filed under it are closed by the next complete scan.
// catalogue.test.ts holds every rule to the catalogue's invariants (its CVSS vector parses, a check
// declares it, a root cause covers it, the ids are unique across tables and never retired), and
// docs/rules.md is generated from it (`npm run gen:rules`).
import { apiRules } from './api/rules.ts';
import type { ApiRuleId } from './api/rules.ts';
import { tlsRules } from './core/tls-rules.ts';
import type { TlsRuleId } from './core/tls-rules.ts';
import type { Rule } from './core/rule.ts';
import { infrastructureRules } from './infrastructure/rules.ts';
import type { InfrastructureRuleId } from './infrastructure/rules.ts';
import { webappRules } from './webapp/rules.ts';
import type { WebappRuleId } from './webapp/rules.ts';

export type RuleId = WebappRuleId | ApiRuleId | InfrastructureRuleId | TlsRuleId;

/** The rule tables, each with the scanners that file its rules. */
export const ruleTables = [
  { name: 'web', scanners: ['webapp'], rules: webappRules },
  { name: 'api', scanners: ['api'], rules: apiRules },
  { name: 'infrastructure', scanners: ['infrastructure'], rules: infrastructureRules },
  { name: 'tls', scanners: ['webapp', 'infrastructure'], rules: tlsRules },
] as const satisfies readonly { name: string; scanners: readonly string[]; rules: Record<string, Rule> }[];

/** Every rule, by id. */
export const ruleCatalogue: Readonly<Record<RuleId, Rule>> = Object.assign(
  {},
  ...ruleTables.map((table) => table.rules),
) as Record<RuleId, Rule>;

/**
 * Rule ids that existed and were withdrawn, with why: never to be used again (a finding filed under one
 * would take the identity of the old findings).
 */
export const retiredRuleIds: Readonly<Record<string, string>> = {};
