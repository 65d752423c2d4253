// Every scanner's checks, as the catalogue's test and the generated rule table (docs/rules.md) see them.
import type { ScanType } from '../../shared/findings.ts';
import { apiChecks } from './api/registry.ts';
import type { CheckDeclaration } from './core/checks.ts';
import { infrastructureChecks } from './infrastructure/registry.ts';
import { webappChecks } from './webapp/registry.ts';

const declared = (checks: readonly CheckDeclaration[]): CheckDeclaration[] =>
  checks.map(({ id, phase, share, category, rules, summary }) => ({
    id,
    phase,
    share,
    category,
    rules,
    summary,
  }));

export const checkRegistry: Readonly<Record<ScanType, readonly CheckDeclaration[]>> = {
  webapp: declared(webappChecks),
  api: declared(apiChecks),
  infrastructure: declared(infrastructureChecks),
};
