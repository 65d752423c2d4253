// What the threads of one connect scan share (connect-scan.ts, connect-scan-thread.ts): the ports, in a
// SharedArrayBuffer every thread takes the next one from, so a thread that starts late or runs slowly
// simply takes fewer; and the messages between a scan and its threads.
import type { PortSource, SweepResult } from './connect-sweep.ts';

/** The shared buffers of a port list; they cross to worker threads without copying. */
export interface SharedPorts {
  ports: SharedArrayBuffer;
  cursor: SharedArrayBuffer;
}

export function sharePorts(ports: readonly number[]): SharedPorts {
  // Guard: a Uint16Array would silently wrap anything outside 0–65535.
  for (const port of ports) {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new RangeError(`not a TCP port: ${port}`);
    }
  }
  const buffer = new SharedArrayBuffer(ports.length * Uint16Array.BYTES_PER_ELEMENT);
  new Uint16Array(buffer).set(ports);
  return { ports: buffer, cursor: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT) };
}

/** Takes ports from a shared list: each port goes to exactly one of the threads reading it. */
export function sharedSource(shared: SharedPorts): PortSource {
  const ports = new Uint16Array(shared.ports);
  const cursor = new Int32Array(shared.cursor);
  return {
    next() {
      const at = Atomics.add(cursor, 0, 1);
      return at < ports.length ? ports[at] : undefined;
    },
  };
}

/** What a scan thread is given (workerData.data). */
export interface ThreadTask {
  address: string;
  shared: SharedPorts;
  concurrency: number;
  minTimeoutMs?: number;
  maxTimeoutMs?: number;
  engine?: 'auto' | 'net.Socket';
}

/** Thread → scan. 'started' comes before the thread takes its first port. */
export type ThreadMessage =
  { type: 'started' } | { type: 'done'; done: number } | { type: 'result'; result: SweepResult };

/** Scan → thread: stop now (the scan was aborted), and report what was found so far. */
export const ABORT_MESSAGE = 'abort';
