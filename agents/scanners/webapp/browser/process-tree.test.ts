import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { requires } from '../../../../tests/helpers/requirements.ts';
import { sleep } from './bounded.ts';
import type { BrowserProcess } from './process-tree.ts';
import { canWatch, ProcessTree, watchMemory } from './process-tree.ts';

const mb = 1024 * 1024;

describe('watchMemory', () => {
  it('names a renderer over its cap, and the whole tree over its own', async () => {
    let processes: BrowserProcess[] = [
      { pid: 1, bytes: 100 * mb, cpu: 0, renderer: false },
      { pid: 2, bytes: 300 * mb, cpu: 0, renderer: true },
    ];
    const renderers: number[] = [];
    const trees: number[] = [];
    const watch = watchMemory(
      { list: () => processes, measure: () => processes },
      { rendererBytes: 250 * mb, treeBytes: 1000 * mb },
      5,
      { renderer: (pid) => renderers.push(pid), tree: (bytes) => trees.push(bytes) },
    );
    await sleep(30);
    expect(renderers.length).toBeGreaterThan(0);
    expect(new Set(renderers)).toEqual(new Set([2]));
    expect(trees).toEqual([]);
    // Many renderers, each under its cap, over the tree's together: the tree's cap is what holds.
    processes = Array.from({ length: 5 }, (_, i) => ({
      pid: 10 + i,
      bytes: 240 * mb,
      cpu: 0,
      renderer: true,
    }));
    renderers.length = 0;
    await sleep(30);
    watch.stop();
    expect(renderers).toEqual([]);
    expect(trees[0]).toBe(1200 * mb);
    expect(watch.peak).toBe(1200 * mb);
  });

  it('kills a renderer that alone put the tree over its cap, and leaves the rest of the browser running', async () => {
    // A look that came late: one renderer grew far past its cap, and the tree with it.
    const processes: BrowserProcess[] = [
      { pid: 1, bytes: 200 * mb, cpu: 0, renderer: false },
      { pid: 2, bytes: 2000 * mb, cpu: 0, renderer: true },
      { pid: 3, bytes: 150 * mb, cpu: 0, renderer: true },
    ];
    const renderers: number[] = [];
    const trees: number[] = [];
    const watch = watchMemory(
      { list: () => processes, measure: () => processes },
      { rendererBytes: 768 * mb, treeBytes: 1280 * mb },
      5,
      { renderer: (pid) => renderers.push(pid), tree: (bytes) => trees.push(bytes) },
    );
    await sleep(30);
    watch.stop();
    expect(new Set(renderers)).toEqual(new Set([2]));
    expect(trees).toEqual([]);
  });
});

const watchable = canWatch
  ? null
  : { requirement: 'posix', detail: `no process table to watch on ${process.platform}` };

describe('ProcessTree', requires(watchable), () => {
  it('finds a process tree by its root and by the marker on detached members, and kills all of it', async () => {
    const marker = mkdtempSync(path.join(tmpdir(), 'vigil-tree-test-'));
    try {
      // A root with a child, and a detached process (its own session, like Chromium's crash handler)
      // that carries the marker on its command line.
      const root = spawn('sh', ['-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' });
      writeFileSync(path.join(marker, 'log'), '');
      const loner = spawn('tail', ['-f', path.join(marker, 'log')], { detached: true, stdio: 'ignore' });
      await sleep(300);
      const tree = new ProcessTree(root.pid!, marker);
      const pids = tree.list().map((p) => p.pid);
      expect(pids).toEqual(expect.arrayContaining([root.pid, loner.pid]));
      expect(pids.length).toBeGreaterThanOrEqual(3);
      expect(tree.killAll()).toBeGreaterThanOrEqual(3);
      await sleep(200);
      expect(tree.list()).toEqual([]);
    } finally {
      rmSync(marker, { recursive: true, force: true });
    }
  });
});
