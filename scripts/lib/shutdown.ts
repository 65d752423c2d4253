// How `npm start` ends. SIGTERM (a process supervisor, `docker stop`), SIGINT (Ctrl-C) and SIGHUP (its
// terminal closed) stop everything it started, within a deadline; so does the end of the process that
// started it: npm passes a signal on to its shell only, and the shell dies without passing it on, which left
// the stack running and holding its port. A second signal ends the process at once.

export interface ShutdownOptions {
  /** When the stop has not finished by then, the process exits anyway. */
  deadlineMs: number;
  log: (line: string) => void;
  /** How often the parent process is looked for. */
  parentPollMs?: number;
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** Runs `stop` once, on the first of the events above, then exits (0 when it finished in time). */
export function stopOnExit(stop: (why: string) => Promise<void>, options: ShutdownOptions): void {
  let stopping = false;
  const begin = (why: string) => {
    if (stopping) {
      options.log(`${why} again: exiting now`);
      process.exit(130);
    }
    stopping = true;
    options.log(`\nStopping Vigil (${why})…`);
    const deadline = setTimeout(() => {
      options.log(`Vigil did not stop within ${options.deadlineMs / 1000} s: exiting anyway`);
      process.exit(1);
    }, options.deadlineMs);
    deadline.unref();
    stop(why).then(
      () => process.exit(0),
      (error: unknown) => {
        options.log(`stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  for (const signal of SIGNALS) {
    process.on(signal, () => begin(signal));
  }
  // A process whose parent ends is handed to another (init, a subreaper): its parent id changes.
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(watch);
      begin('the process that started it ended');
    }
  }, options.parentPollMs ?? 500);
  watch.unref();
}

/** Whether `promise` settled within `ms` (it is left running either way). */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}
