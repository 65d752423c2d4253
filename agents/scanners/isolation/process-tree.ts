// The memory of a process and all its descendants (a scan process and the Chromium it drives), and how
// to end all of them at once. Linux reads /proc (proportional set size, so pages Chromium's processes
// share are counted once); macOS asks ps for resident sizes; Windows has neither here: memory is then
// unmeasured (the V8 heap limit and Chromium's own limits still hold) and taskkill ends the tree.
//
// Members are remembered with their start time: a descendant left behind after its parent died (and was
// re-parented) is still found and ended, and a process id the system has since given to another
// program is never signalled.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

export interface TreeMemory {
  /** Memory of the whole tree in MiB (proportional on Linux, resident elsewhere). */
  mb: number;
  /** Processes in the tree, the root included. */
  processes: number;
}

interface ProcessInfo {
  parent: number;
  /** When it started (clock ticks since boot on Linux, ps's lstart elsewhere): tells a reused id apart. */
  started: string;
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 5000, maxBuffer: 8 * 1024 * 1024 }, (error, stdout) =>
      resolve(error ? '' : stdout),
    );
  });
}

/** Every process, with its parent and start time, as the system sees them now. */
async function processTable(): Promise<Map<number, ProcessInfo>> {
  const table = new Map<number, ProcessInfo>();
  if (process.platform === 'linux') {
    const entries = await readdir('/proc').catch(() => [] as string[]);
    await Promise.all(
      entries
        .filter((name) => /^\d+$/.test(name))
        .map(async (name) => {
          const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => null);
          // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
          const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
          if (fields?.[1] && fields[19]) {
            table.set(Number(name), { parent: Number(fields[1]), started: fields[19] });
          }
        }),
    );
  } else if (process.platform === 'darwin') {
    for (const line of (await run('ps', ['-A', '-o', 'pid=,ppid=,lstart='])).split('\n')) {
      const match = /^\s*(\d+)\s+(\d+)\s+(.+)$/.exec(line);
      if (match) {
        table.set(Number(match[1]), { parent: Number(match[2]), started: match[3]!.trim() });
      }
    }
  }
  return table;
}

async function linuxKb(pid: number): Promise<number> {
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => null);
  const pss = rollup ? /^Pss:\s+(\d+) kB/m.exec(rollup) : null;
  if (pss) {
    return Number(pss[1]);
  }
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
}

async function darwinKb(pids: number[]): Promise<number> {
  const sizes = new Map<number, number>();
  for (const line of (await run('ps', ['-A', '-o', 'pid=,rss='])).split('\n')) {
    const [pid, rss] = line.trim().split(/\s+/).map(Number);
    if (pid && rss !== undefined) {
      sizes.set(pid, rss);
    }
  }
  return pids.reduce((sum, pid) => sum + (sizes.get(pid) ?? 0), 0);
}

const measurable = process.platform === 'linux' || process.platform === 'darwin';

export class ProcessTree {
  /** Every process seen in the tree so far, with its start time. */
  private readonly members = new Map<number, string>();

  constructor(private readonly root: number) {}

  /** The tree's processes now (the root's descendants, and earlier members still alive), remembered. */
  private async current(): Promise<number[]> {
    const table = await processTable();
    const alive = (pid: number) => table.has(pid) && table.get(pid)!.started === this.members.get(pid);
    const known = this.members.get(this.root);
    const rootAlive =
      table.has(this.root) && (known === undefined || known === table.get(this.root)!.started);
    const tree = rootAlive ? [this.root] : [];
    for (let i = 0; i < tree.length; i += 1) {
      for (const [pid, info] of table) {
        if (info.parent === tree[i] && !tree.includes(pid)) {
          tree.push(pid);
        }
      }
    }
    for (const pid of tree) {
      this.members.set(pid, table.get(pid)!.started);
    }
    const orphans = [...this.members.keys()].filter((pid) => !tree.includes(pid) && alive(pid));
    for (const pid of this.members.keys()) {
      if (!tree.includes(pid) && !alive(pid)) {
        this.members.delete(pid);
      }
    }
    return [...tree, ...orphans];
  }

  /** The tree's memory now, or null where this system gives no way to measure it. */
  async memory(): Promise<TreeMemory | null> {
    if (!measurable) {
      return null;
    }
    const pids = await this.current();
    const kb =
      process.platform === 'linux'
        ? (await Promise.all(pids.map(linuxKb))).reduce((a, b) => a + b, 0)
        : await darwinKb(pids);
    return { mb: Math.round(kb / 1024), processes: pids.length };
  }

  /**
   * Ends every process of the tree (on Windows, taskkill /T /F). The tree is frozen first (SIGSTOP) and
   * listed again until no new process appears, so nothing forked meanwhile escapes; then all are killed.
   */
  async kill(): Promise<void> {
    if (process.platform === 'win32') {
      await run('taskkill', ['/pid', String(this.root), '/T', '/F']);
      return;
    }
    const send = (pid: number, name: NodeJS.Signals) => {
      try {
        process.kill(pid, name);
      } catch {
        // Already gone.
      }
    };
    const frozen = new Set<number>();
    for (let round = 0; round < 5; round += 1) {
      const fresh = (await this.current()).filter((pid) => !frozen.has(pid));
      if (fresh.length === 0) {
        break;
      }
      fresh.forEach((pid) => {
        frozen.add(pid);
        send(pid, 'SIGSTOP');
      });
    }
    frozen.forEach((pid) => send(pid, 'SIGKILL'));
    // A killed process is gone only once the kernel has run it down (a loaded machine takes a moment);
    // callers are told the tree is ended only when none of it is left alive (zombies aside), or after 3 s.
    const until = Date.now() + 3000;
    while (Date.now() < until && (await this.alive(frozen)) > 0) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** How many of `pids` still run (a zombie, dead but not yet reaped, does not count). */
  private async alive(pids: Set<number>): Promise<number> {
    if (process.platform !== 'linux') {
      let count = 0;
      pids.forEach((pid) => {
        try {
          process.kill(pid, 0);
          count += 1;
        } catch {
          // Gone.
        }
      });
      return count;
    }
    const states = await Promise.all(
      [...pids].map(async (pid) => {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
        const state = stat?.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        return state !== undefined && state !== 'Z' && state !== 'X';
      }),
    );
    return states.filter(Boolean).length;
  }
}
