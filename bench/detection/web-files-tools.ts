// The reference tools for the web-files class, each run as a security engineer would run it, with a
// parser of its own output that maps what it reports onto a fixture's planted list: wapiti (modules
// backup, buster, methods, htaccess), nmap's http-* NSE scripts, and whatweb.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { Parser } from 'htmlparser2';

import type { PlantedIssue, RunningFixture } from '../../tests/fixtures/planted.ts';
import { runTool } from './tool-process.ts';
import type { ReferenceTool, ToolRun } from './types.ts';

/** The planted issue at `location` whose rule passes `rules`, if any. */
function plantedAt(
  fixture: RunningFixture,
  location: string,
  rules: (rule: string) => boolean,
): PlantedIssue[] {
  const bare = location.replace(/\/$/, '');
  return fixture.planted.filter(
    (p) => rules(p.rule_id) && (p.location === location || p.location === bare || p.location === `${bare}/`),
  );
}

const pathOf = (url: string, fixture: RunningFixture) => {
  const u = new URL(url, fixture.target);
  return `${u.pathname}${u.search}`;
};
const isExposure = (rule: string) =>
  rule.startsWith('web.exposed.') || rule.startsWith('web.robots.') || rule === 'web.disclosure.header-path';

/**
 * Collects found issues, false claims (a claimed problem at a path where none is planted) and what the tool
 * reports outside our rules.
 */
function collector(fixture: RunningFixture) {
  const found = new Map<string, PlantedIssue>();
  const falsePositives = new Set<string>();
  const toolOnly = new Set<string>();
  return {
    outsideOurRules(line: string) {
      toolOnly.add(line);
    },
    claim(location: string, rules: (rule: string) => boolean, what: string, countsAsFalse = true) {
      const hits = plantedAt(fixture, location, rules);
      hits.forEach((hit) => found.set(`${hit.rule_id} ${hit.location}`, hit));
      if (hits.length === 0 && countsAsFalse) {
        falsePositives.add(`${what} ${location}`);
      }
    },
    result: (ms: number, note?: string): ToolRun => ({
      found: [...found.values()],
      falsePositives: [...falsePositives],
      toolOnly: [...toolOnly],
      ms,
      ...(note ? { note } : {}),
    }),
  };
}

export const wapiti: ReferenceTool = {
  name: 'wapiti -m backup,buster,methods,htaccess',
  command: 'wapiti',
  aptPackage: 'wapiti',
  covers: (i) => isExposure(i.rule_id) || ['web.webdav.write', 'web.auth.method-bypass'].includes(i.rule_id),
  async run(fixture) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-wapiti-'));
    try {
      const out = path.join(dir, 'report.json');
      const run = await runTool(
        'wapiti',
        ['-u', `${fixture.target}/`, '-m', 'backup,buster,methods,htaccess', '-f', 'json', '-o', out].concat([
          '--store-session',
          dir,
          '--flush-session',
          '--no-bugreport',
          '-v',
          '1',
        ]),
        { timeoutMs: 1_200_000 },
      );
      const c = collector(fixture);
      const report = JSON.parse(await readFile(out, 'utf8').catch(() => '{}')) as {
        vulnerabilities?: Record<string, { path: string; info: string }[]>;
      };
      for (const [category, items] of Object.entries(report.vulnerabilities ?? {})) {
        for (const item of items) {
          const rule = /backup/i.test(category)
            ? 'web.exposed.backup'
            : /htaccess/i.test(category)
              ? 'web.auth.method-bypass'
              : '';
          if (!rule) {
            c.outsideOurRules(`${category}: ${pathOf(item.path, fixture)} ${item.info}`);
            continue;
          }
          c.claim(pathOf(item.path, fixture), (r) => r === rule, category);
        }
      }
      // buster and methods only print what they see: a found page is an observation, not a claim.
      for (const [, url] of run.stdout.matchAll(/^Found webpage (\S+)/gm)) {
        c.claim(pathOf(url!, fixture), isExposure, 'page', false);
      }
      for (const [, url, methods] of run.stdout.matchAll(/^Interesting methods allowed on (\S+): (.+)$/gm)) {
        if (/\b(PUT|DELETE|MKCOL|MOVE|COPY)\b/.test(methods!)) {
          c.claim(pathOf(url!, fixture), (r) => r === 'web.webdav.write', `methods ${methods}`);
        }
      }
      return c.result(run.ms, run.timedOut ? 'timed out after 20 min' : undefined);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};

/** Script outputs of nmap's XML report (`-oX -`), by script id. */
export function nmapScripts(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'script' && attribs.id && attribs.output !== undefined) {
          out.set(attribs.id, attribs.output);
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return out;
}

const nseScripts = [
  'http-methods',
  'http-webdav-scan',
  'http-trace',
  'http-enum',
  'http-backup-finder',
  'http-config-backup',
  'http-apache-server-status',
  'http-robots.txt',
];

export const nmapHttp: ReferenceTool = {
  name: `nmap --script ${nseScripts.join(',')}`,
  command: 'nmap',
  aptPackage: 'nmap',
  covers: (i) =>
    isExposure(i.rule_id) ||
    ['web.method.trace', 'web.webdav.write', 'web.webdav.listing', 'web.directory-listing'].includes(
      i.rule_id,
    ),
  async run(fixture) {
    const url = new URL(fixture.target);
    const run = await runTool(
      'nmap',
      [
        '-Pn',
        '-n',
        '-p',
        url.port,
        '--script',
        nseScripts.map((s) => `+${s}`).join(','),
        '-oX',
        '-',
        url.hostname,
      ],
      { timeoutMs: 600_000 },
    );
    const scripts = nmapScripts(run.stdout);
    const c = collector(fixture);
    if (/TRACE is enabled/.test(scripts.get('http-trace') ?? '')) {
      c.claim('/', (r) => r === 'web.method.trace', 'TRACE');
    }
    const risky = /Potentially risky methods: (.+)/.exec(scripts.get('http-methods') ?? '')?.[1] ?? '';
    if (/\bTRACE\b/.test(risky)) {
      c.claim('/', (r) => r === 'web.method.trace', 'TRACE');
    }
    if (/\b(PUT|DELETE|MKCOL|MOVE|COPY)\b/.test(risky)) {
      c.claim('/', (r) => r === 'web.webdav.write', `methods ${risky}`);
    }
    const webdav = scripts.get('http-webdav-scan') ?? '';
    if (/WebDAV is ENABLED|Directory Listing/i.test(webdav)) {
      c.claim('/', (r) => r.startsWith('web.webdav.'), 'WebDAV');
    }
    for (const [, p, what] of (scripts.get('http-enum') ?? '').matchAll(/^\s+(\/\S*): (.+)$/gm)) {
      const listing = /listing/i.test(what!);
      c.claim(
        p!,
        (r) => isExposure(r) || (listing && r === 'web.directory-listing'),
        what!,
        /backup|listing/i.test(what!),
      );
    }
    for (const id of ['http-backup-finder', 'http-config-backup']) {
      for (const [, found] of (scripts.get(id) ?? '').matchAll(/(https?:\/\/\S+|^\s+(\/\S+))/gm)) {
        c.claim(pathOf(found!.trim(), fixture), (r) => r === 'web.exposed.backup', id);
      }
    }
    if (
      scripts.has('http-apache-server-status') &&
      /Server Version|Heading/.test(scripts.get('http-apache-server-status')!)
    ) {
      c.claim('/server-status', (r) => r === 'web.exposed.server-status', 'server-status');
    }
    for (const [, p] of (scripts.get('http-robots.txt') ?? '').matchAll(/(\/[^\s]*)/g)) {
      c.claim(p!, (r) => r.startsWith('web.robots.'), 'robots entry', false);
    }
    return c.result(run.ms, run.timedOut ? 'timed out' : undefined);
  },
};

export const whatweb: ReferenceTool = {
  name: 'whatweb -a 3',
  command: 'whatweb',
  aptPackage: 'whatweb',
  covers: (i) => i.rule_id === 'web.directory-listing' || i.rule_id.startsWith('web.webdav.'),
  async run(fixture) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-whatweb-'));
    try {
      const log = path.join(dir, 'log.json');
      const run = await runTool(
        'whatweb',
        ['-a', '3', '--color=never', `--log-json=${log}`, `${fixture.target}/`],
        {
          timeoutMs: 300_000,
        },
      );
      const c = collector(fixture);
      const entries = JSON.parse(await readFile(log, 'utf8').catch(() => '[]')) as {
        target: string;
        plugins: Record<string, unknown>;
      }[];
      for (const entry of entries) {
        if ('Index-Of' in entry.plugins) {
          c.claim(pathOf(entry.target, fixture), (r) => r === 'web.directory-listing', 'Index-Of');
        }
        if ('WebDAV' in entry.plugins) {
          c.claim(pathOf(entry.target, fixture), (r) => r.startsWith('web.webdav.'), 'WebDAV');
        }
      }
      return c.result(run.ms);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
