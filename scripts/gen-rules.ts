// `npm run gen:rules`: writes docs/rules.md from the rule catalogue and the check registry.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { renderRulesDoc } from '../agents/scanners/rules-doc.ts';

const file = path.resolve(import.meta.dirname, '../docs/rules.md');
writeFileSync(file, renderRulesDoc());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
