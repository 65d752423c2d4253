// The processes of one scan's Chromium, found and measured from outside it: the browser's descendants,
// its process group, and every process whose command line names the scan's own browser directory (the
// crash handlers detach from the tree and start sessions of their own, but carry that path). On Linux it
// reads /proc (cheap, no child process); on other Unix systems it asks `ps` once per look; on Windows it
// finds nothing, and the scan relies on the renderers' heap limit alone (docs/scanners/limits.md §4 says so).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface BrowserProcess {
  pid: number;
  /** Memory the process holds for itself: anonymous pages and shared memory (not the mapped binary). */
  bytes: number;
  /** CPU time used so far (user + system), in clock ticks on Linux, centiseconds elsewhere. */
  cpu: number;
  renderer: boolean;
}

interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  zombie: boolean;
  cpu: number;
}

/** Whether this system can be watched at all. */
export const canWatch = process.platform !== 'win32';
const hasProc = process.platform === 'linux';

function readProc(pid: string): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      pid: Number(pid),
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      zombie: fields[0] === 'Z' || fields[0] === 'X',
      cpu: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    // Guard: a process may end between the listing and the read.
    return null;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

function memoryOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return (kb('RssAnon') + kb('RssShmem')) * 1024;
  } catch {
    return 0;
  }
}

/** Every live process, with what a look at the tree needs (`ps` where there is no /proc). */
function listAll(): (ProcInfo & { command?: string; rss?: number })[] {
  if (hasProc) {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(readProc)
      .filter((p): p is ProcInfo => p !== null && !p.zombie);
  }
  try {
    const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,rss=,time=,command='], {
      encoding: 'utf8',
      maxBuffer: 16_000_000,
      timeout: 5000,
    });
    return out.split('\n').flatMap((line) => {
      const m =
        /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+)(?:\.(\d+))?\s+(.*)$/.exec(
          line,
        );
      if (!m) {
        return [];
      }
      const seconds = Number(m[5] ?? 0) * 86400 + Number(m[6] ?? 0) * 3600 + Number(m[7]) * 60 + Number(m[8]);
      return [
        {
          pid: Number(m[1]),
          ppid: Number(m[2]),
          pgid: Number(m[3]),
          zombie: false,
          cpu: seconds * 100 + Number((m[9] ?? '0').slice(0, 2).padEnd(2, '0')),
          rss: Number(m[4]) * 1024,
          command: m[10],
        },
      ];
    });
  } catch {
    return [];
  }
}

/**
 * Finds a browser's processes. `marker` is a path unique to this browser (its directory), which every
 * one of its processes carries on its command line; command lines are read once per process.
 */
export class ProcessTree {
  private readonly known = new Map<number, { ours: boolean; renderer: boolean }>();
  /** The members the last full look found. */
  private members: BrowserProcess[] = [];

  constructor(
    private readonly rootPid: number | null,
    private readonly marker: string,
  ) {}

  list(): BrowserProcess[] {
    if (!canWatch) {
      return [];
    }
    const all = listAll();
    const children = new Map<number, number[]>();
    for (const p of all) {
      children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
    }
    const members = new Set<number>();
    const stack = this.rootPid === null ? [] : [this.rootPid];
    while (stack.length > 0) {
      const pid = stack.pop()!;
      if (!members.has(pid)) {
        members.add(pid);
        stack.push(...(children.get(pid) ?? []));
      }
    }
    const out: BrowserProcess[] = [];
    for (const p of all) {
      let seen = this.known.get(p.pid);
      if (!seen) {
        const command = p.command ?? commandLine(p.pid);
        seen = { ours: command.includes(this.marker), renderer: command.includes('--type=renderer') };
        this.known.set(p.pid, seen);
      }
      const inTree = members.has(p.pid) || (this.rootPid !== null && p.pgid === this.rootPid);
      if (inTree || seen.ours) {
        out.push({
          pid: p.pid,
          bytes: p.rss ?? memoryOf(p.pid),
          cpu: p.cpu,
          renderer: seen.renderer,
        });
      }
    }
    // Forget processes that ended, so a reused pid is looked at afresh.
    const live = new Set(all.map((p) => p.pid));
    for (const pid of this.known.keys()) {
      if (!live.has(pid)) {
        this.known.delete(pid);
      }
    }
    this.members = out;
    return out;
  }

  /**
   * The members of the last full look, measured again (a few reads, where a full look reads every
   * process of the machine): what the watch does between two full looks. Elsewhere than Linux, a full look.
   */
  measure(): BrowserProcess[] {
    if (!hasProc) {
      return this.list();
    }
    return this.members.flatMap((p) => {
      const now = readProc(String(p.pid));
      return now && !now.zombie ? [{ ...p, bytes: memoryOf(p.pid), cpu: now.cpu }] : [];
    });
  }

  /** SIGKILLs every process of the browser, looking again until none is left (or after a few rounds). */
  killAll(): number {
    let killed = 0;
    for (let round = 0; round < 4; round += 1) {
      const left = this.list();
      if (left.length === 0) {
        break;
      }
      for (const { pid } of left) {
        try {
          process.kill(pid, 'SIGKILL');
          killed += 1;
        } catch {
          // Guard: it ended on its own meanwhile.
        }
      }
    }
    return killed;
  }
}

export interface MemoryCaps {
  /** One renderer above this is killed: its tab crashes and is replaced, the crawl goes on. */
  rendererBytes: number;
  /** The whole browser above this is killed: rendering stops for the rest of the scan. */
  treeBytes: number;
}

export interface Watch {
  stop(): void;
  /** The largest total seen, in bytes. */
  readonly peak: number;
}

/** A full look (every process of the machine, for new members) once in this many looks. */
const fullLookEvery = 10;

/**
 * Looks at the tree every `everyMs` (its known members; the whole machine for new ones every tenth look);
 * calls back when a renderer or the whole tree passes its cap.
 */
export function watchMemory(
  tree: Pick<ProcessTree, 'list' | 'measure'>,
  caps: MemoryCaps,
  everyMs: number,
  on: { renderer: (pid: number, bytes: number) => void; tree: (bytes: number) => void },
): Watch {
  let peak = 0;
  let looks = 0;
  const look = () => {
    let processes: BrowserProcess[];
    try {
      processes = looks++ % fullLookEvery === 0 ? tree.list() : tree.measure();
    } catch {
      // Guard: a look that fails (out of file descriptors) is skipped; an exception here would end the process.
      return;
    }
    const total = processes.reduce((sum, p) => sum + p.bytes, 0);
    peak = Math.max(peak, total);
    // A renderer over its own cap is killed first, and the tree judged without it: when one page is what
    // put the whole tree over (a look that came late on a loaded host), that page pays, not the rendering.
    let rest = total;
    for (const p of processes) {
      if (p.renderer && p.bytes > caps.rendererBytes) {
        on.renderer(p.pid, p.bytes);
        rest -= p.bytes;
      }
    }
    if (rest > caps.treeBytes) {
      on.tree(total);
    }
  };
  const timer = setInterval(look, everyMs);
  // The watch never keeps the process alive by itself.
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    get peak() {
      return peak;
    },
  };
}
