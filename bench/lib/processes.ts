// The processes a command runs, read from /proc (Linux): a root and its descendants, each with its resident
// and proportional memory, so the bench can say what `npm start` costs a machine.
import { readdir, readFile } from 'node:fs/promises';

export interface ProcessMemory {
  pid: number;
  /** The command line, shortened. */
  command: string;
  rssMb: number;
  /** Proportional set size: pages shared with other processes counted in part. */
  pssMb: number;
  threads: number;
}

async function parentsByPid(): Promise<Map<number, number>> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) {
      continue;
    }
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => null);
    // The command name (field 2) is in parentheses and may hold spaces.
    const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields?.[1]) {
      parents.set(Number(name), Number(fields[1]));
    }
  }
  return parents;
}

/** `root` and every descendant alive now. */
export async function processTree(root: number): Promise<number[]> {
  const parents = await parentsByPid();
  if (!parents.has(root)) {
    return [];
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, parent] of parents) {
      if (parent === tree[i] && !tree.includes(pid)) {
        tree.push(pid);
      }
    }
  }
  return tree;
}

/** Whether any of `pids` is still running. */
export async function anyAlive(pids: number[]): Promise<boolean> {
  const parents = await parentsByPid();
  return pids.some((pid) => parents.has(pid));
}

export async function processMemory(pid: number): Promise<ProcessMemory | null> {
  const [status, rollup, cmdline] = await Promise.all([
    readFile(`/proc/${pid}/status`, 'utf8').catch(() => null),
    readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => null),
    readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => ''),
  ]);
  if (!status) {
    return null;
  }
  const kb = (text: string | null, field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text ?? '')?.[1] ?? 0);
  return {
    pid,
    command: cmdline.replaceAll('\0', ' ').trim().slice(0, 80),
    rssMb: kb(status, 'VmRSS') / 1024,
    pssMb: kb(rollup, 'Pss') / 1024,
    threads: kb(status, 'Threads'),
  };
}

/** The memory of `root`'s tree now, each process and the sums. */
export async function treeMemory(
  root: number,
  skip: (p: ProcessMemory) => boolean = () => false,
): Promise<{ processes: ProcessMemory[]; rssMb: number; pssMb: number }> {
  const all = await Promise.all((await processTree(root)).map(processMemory));
  const processes = all.filter((p): p is ProcessMemory => p !== null && !skip(p));
  return {
    processes,
    rssMb: processes.reduce((sum, p) => sum + p.rssMb, 0),
    pssMb: processes.reduce((sum, p) => sum + p.pssMb, 0),
  };
}
