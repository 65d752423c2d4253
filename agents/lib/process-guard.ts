// Long-lived processes (the stack with its worker, `npm run worker`) must not be taken down by a promise
// that some library let reject unobserved: Node's default ends the process on one, and with it every job
// in hand. Such a rejection is logged, loudly, and the process goes on. (Scans run in processes of their
// own, scan-child.ts, which report theirs to the worker the same way.) Uncaught exceptions keep Node's
// default: after one, the process's state is unknown, and a supervisor restarts it.
export function logUnhandledRejections(log: (message: string) => void = (m) => console.error(m)): void {
  process.on('unhandledRejection', (reason) => {
    const text =
      reason instanceof Error ? (reason.stack ?? `${reason.name}: ${reason.message}`) : String(reason);
    log(`[vigil] unhandled promise rejection (the process goes on): ${text}`);
  });
}
