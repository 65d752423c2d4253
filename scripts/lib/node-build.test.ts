import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES, STACK_NODE_FLAGS, ensureNodeBuild, outDir, root, staleReason } from './node-build.mjs';

/** Every TypeScript file of the Node side, relative to the root. */
function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

describe('the build entries', () => {
  it('holds every thread and process entry the code names, with the same source file', () => {
    const calls: { file: string; source: string; name: string }[] = [];
    for (const file of ['server', 'agents', 'scripts'].flatMap(sources)) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(/moduleEntry\(\s*import\.meta\.url,\s*'([^']+)',\s*'([^']+)'\s*\)/g)) {
        calls.push({ file, source: m[1]!, name: m[2]! });
      }
    }
    // The PGlite engine thread, the scan process and the connect-scan threads at least.
    expect(calls.map((c) => c.name).sort()).toEqual(
      expect.arrayContaining(['connect-scan-thread', 'pglite-engine-worker', 'scan-child']),
    );
    for (const call of calls) {
      const source = path.relative(root, path.resolve(root, path.dirname(call.file), call.source));
      expect(ENTRIES, `${call.file} names ${call.name}`).toHaveProperty([call.name], source);
    }
  });

  it('holds every edge function handler the stack may load', () => {
    const functions = readdirSync(path.join(root, 'supabase/functions'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('_'))
      .map((e) => e.name);
    expect(functions.length).toBeGreaterThan(3);
    for (const name of functions) {
      expect(ENTRIES).toHaveProperty([`function-${name}`], `supabase/functions/${name}/handler.ts`);
    }
  });

  it('is what the npm scripts run, npm start with the stack process flags', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toBe(`node ${STACK_NODE_FLAGS.join(' ')} scripts/launch.mjs start`);
    expect(scripts.worker).toBe('node scripts/launch.mjs worker');
    expect(scripts.scan).toBe('node scripts/launch.mjs scan');
    expect(scripts['stack:status']).toBe('node scripts/launch.mjs stack-status');
    for (const name of ['start', 'worker', 'scan', 'stack-status']) {
      expect(ENTRIES).toHaveProperty([name]);
    }
  });
});

describe('whether dist/node is current', () => {
  let dir: string;
  let record: { inputs: Record<string, [number, number, string]>; outputs: string[] };
  beforeAll(async () => {
    await ensureNodeBuild();
    dir = await mkdtemp(path.join(tmpdir(), 'vigil-node-build-'));
    record = JSON.parse(await readFile(path.join(outDir, 'build-info.json'), 'utf8')) as typeof record;
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const reasonWith = async (change: (r: typeof record) => void) => {
    const copy = structuredClone(record);
    change(copy);
    const file = path.join(dir, `info-${Math.random()}.json`);
    await writeFile(file, JSON.stringify(copy));
    return staleReason(file);
  };

  it('is current right after a build, with every source the bundles hold among its inputs', () => {
    expect(staleReason()).toBeNull();
    expect(Object.keys(record.inputs)).toEqual(
      expect.arrayContaining([
        'scripts/start.ts',
        'server/stack.ts',
        'package.json',
        'agents/scanners/webapp/components/data/retire.json',
      ]),
    );
  });

  it('is current for a copy whose files have other times but the same content', async () => {
    expect(await reasonWith((r) => (r.inputs['server/stack.ts']![0] -= 1000))).toBeNull();
  });

  it('is stale when a source changed, an output is gone, or there is no record', async () => {
    expect(await reasonWith((r) => (r.inputs['server/stack.ts']![1] += 1))).toBe('server/stack.ts changed');
    // Another time and another content: changed (the same time with another recorded hash is not read).
    expect(await reasonWith((r) => (r.inputs['server/stack.ts']![2] = 'another'))).toBeNull();
    expect(
      await reasonWith((r) => {
        r.inputs['server/stack.ts']![0] -= 1000;
        r.inputs['server/stack.ts']![2] = 'another';
      }),
    ).toBe('server/stack.ts changed');
    expect(await reasonWith((r) => r.outputs.push('chunk-GONE.js'))).toBe('an output is missing');
    expect(await reasonWith((r) => (r.outputs = r.outputs.filter((f) => f !== 'scan-child.js')))).toBe(
      'an entry was added',
    );
    expect(staleReason(path.join(dir, 'none.json'))).toBe('not built yet');
  });
});
