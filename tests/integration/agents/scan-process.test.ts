// The scan process boundary (agents/scanners/isolation/scan-process.ts) on real scans of loopback web
// servers: the time limit, a cancel, the memory cap and a crash each end the scan from outside, the
// result keeps what was found with the reason, and nothing of the scan's process tree is left behind.
import { readFile } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ProcessTree } from '../../../agents/scanners/isolation/process-tree.ts';
import { runIsolatedScan, STOP_GRACE_MS } from '../../../agents/scanners/isolation/scan-process.ts';
import { startDripServer, type DripServer } from '../../fixtures/hostile/drip.ts';
import { linux, requires } from '../../helpers/requirements.ts';

let drip: DripServer;
beforeAll(async () => {
  drip = await startDripServer({ everyMs: 1000 });
});
afterAll(async () => {
  await drip.close();
});

/**
 * Scan processes started by this test file (descendants of this process whose command line names the
 * scan process's entry): none may outlive a scan. Other files' scans, running in parallel, are not ours.
 */
async function scanProcesses(): Promise<number[]> {
  const { readdir } = await import('node:fs/promises');
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    const stat = /^\d+$/.test(name) ? await readFile(`/proc/${name}/stat`, 'utf8').catch(() => null) : null;
    const ppid = stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
    if (ppid) {
      parents.set(Number(name), Number(ppid));
    }
  }
  const ours = (pid: number): boolean => {
    for (let at: number | undefined = pid; at && at > 1; at = parents.get(at)) {
      if (at === process.pid) {
        return true;
      }
    }
    return false;
  };
  const pids: number[] = [];
  for (const pid of parents.keys()) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('scan-child') && ours(pid)) {
      pids.push(pid);
    }
  }
  return pids;
}

const base = { target: '', mode: 'local' as const, render: false as const };

describe('scan process', requires(linux()), () => {
  it('ends a scan at its time limit, keeping what it found, and says so', async () => {
    const before = Date.now();
    const result = await runIsolatedScan('webapp', { ...base, target: drip.url, limits: { timeMs: 8000 } });
    // The limit, plus the process's start and a grace to hand back the result (never the drip's forever).
    expect(Date.now() - before).toBeLessThan(8000 + 20_000);
    expect(result.partial).toBe(true);
    expect(result.stopped?.reason ?? result.phase_errors[0]?.error).toBeTruthy();
    expect(JSON.stringify(result)).toMatch(/time limit/);
    // What the start page showed before the drip was still found.
    expect(result.findings.map((f) => f.rule_id)).toContain('web.transport.cleartext');
    expect(result.resources.time_limit_ms).toBe(8000);
    expect(await scanProcesses()).toEqual([]);
  });

  it('stops within the grace period of a cancel, whatever the scan is waiting on', async () => {
    const controller = new AbortController();
    const found: string[] = [];
    const running = runIsolatedScan('webapp', {
      ...base,
      target: drip.url,
      signal: controller.signal,
      onFinding: (f) => found.push(f.rule_id),
    });
    // Cancel once the scan is inside the drip (it has found the start page's problems by then).
    while (!found.includes('web.transport.cleartext')) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 1000));
    const cancelledAt = Date.now();
    controller.abort();
    const result = await running;
    const took = Date.now() - cancelledAt;
    expect(result.stopped?.reason).toBe('cancelled');
    expect(result.partial).toBe(true);
    expect(result.findings.map((f) => f.rule_id)).toContain('web.transport.cleartext');
    // The grace, and the time to kill and list a process tree (a loaded machine: a margin, not a race).
    expect(took).toBeLessThan(STOP_GRACE_MS + 3000);
    // The target has been let go: no connection of the scan is left open.
    await expect.poll(() => drip.open(), { timeout: 3000 }).toBe(0);
    expect(await scanProcesses()).toEqual([]);
  });

  it('stops a scan whose processes pass their memory cap', async () => {
    // A Node process running a scan takes more than 40 MB (about 80 from source): the cap is passed at
    // once, for real.
    const result = await runIsolatedScan('webapp', {
      ...base,
      target: drip.url,
      limits: { memoryMb: 40 },
    });
    expect(result.partial).toBe(true);
    expect(result.stopped?.reason).toBe('memory');
    expect(result.stopped?.detail).toMatch(/memory cap of 40 MB/);
    expect(result.resources.peak_memory_mb).toBeGreaterThan(40);
    expect(await scanProcesses()).toEqual([]);
  });

  it('survives the scan process being killed, reporting what it streamed as a crash', async () => {
    const found: string[] = [];
    let killed = false;
    const result = await runIsolatedScan('webapp', {
      ...base,
      target: drip.url,
      onFinding: (f) => {
        found.push(f.rule_id);
        // As the system's OOM killer would: SIGKILL, no goodbye.
        if (!killed && f.rule_id === 'web.transport.cleartext') {
          killed = true;
          void scanProcesses().then((pids) => pids.forEach((pid) => process.kill(pid, 'SIGKILL')));
        }
      },
    });
    expect(result.partial).toBe(true);
    expect(result.stopped).toEqual({ reason: 'crashed', detail: 'the scan process was ended by SIGKILL' });
    expect(result.findings.map((f) => f.rule_id)).toEqual(expect.arrayContaining(found));
    expect(found).toContain('web.transport.cleartext');
    expect(await scanProcesses()).toEqual([]);
  });

  it('reports the peak memory of a short scan (its own peak joins the samples of its tree)', async () => {
    const started = Date.now();
    // One closed port (the same single connection as the refused target below): over in a moment.
    const result = await runIsolatedScan('infrastructure', {
      target: '127.0.0.1',
      mode: 'local',
      ports: '1',
    });
    expect(result.partial).toBe(false);
    // A Node process holds tens of MB. (A scan over before a 500 ms sample of its tree came back reported
    // none: the hostile-host suite's fastest cases, now and then.)
    expect(result.resources.peak_memory_mb).toBeGreaterThan(20);
    expect(Date.now() - started).toBeGreaterThan(0);
    expect(await scanProcesses()).toEqual([]);
  });

  it('fails a scan of a target that does not answer, as before, with the reason', async () => {
    await expect(
      runIsolatedScan('webapp', { ...base, target: 'http://127.0.0.1:1/', limits: { timeMs: 30_000 } }),
    ).rejects.toThrow(/does not answer.*ECONNREFUSED/);
    expect(await scanProcesses()).toEqual([]);
  });
});

describe('process tree', requires(linux()), () => {
  it('measures a tree and kills all of it, grandchildren included', async () => {
    const { spawn } = await import('node:child_process');
    // A shell that starts two sleeping grandchildren, and sleeps itself.
    const root = spawn('sh', ['-c', 'sleep 300 & sleep 300 & sleep 300'], { stdio: 'ignore' });
    const tree = new ProcessTree(root.pid!);
    await expect.poll(async () => (await tree.memory())?.processes, { timeout: 5000 }).toBe(4);
    const members = await tree.memory();
    expect(members?.mb).toBeGreaterThanOrEqual(0);
    const exited = new Promise((resolve) => root.once('exit', resolve));
    await tree.kill();
    await exited;
    await expect.poll(async () => (await tree.memory())?.processes ?? 0, { timeout: 5000 }).toBe(0);
  });
});
