// One TCP connection attempt per port, for the connect scan. A full sweep makes 65,535 of them, so the
// per-attempt cost is the sweep's speed: net.Socket spends about four times the CPU of the libuv TCP
// handle beneath it (stream set-up, deferred lookup, error emission; measured by `npm run bench --
// scanners`: ~7 s against ~2 s of CPU for 65,535 refused loopback connects). Attempts therefore use
// Node's `tcp_wrap` binding directly when it has the shape this file expects, and net.Socket otherwise
// (or when VIGIL_SCAN_RAW_TCP=off). No closure is made per attempt on the fast path: one shared
// completion function finds its attempt on the request object.
import net from 'node:net';
import util from 'node:util';
import { scannerSettings } from '../core/settings.ts';

export type Outcome = 'open' | 'refused' | 'closed' | 'timeout' | 'busy';

/** Called exactly once per started attempt (a cancelled attempt reports 'timeout'). */
export type OnOutcome = (attempt: Attempt, outcome: Outcome, elapsedMs: number) => void;

export interface Attempt {
  readonly port: number;
  /** When the scheduler gives up on it (performance.now() time). */
  deadline: number;
  cancel(): void;
}

export interface Prober {
  readonly kind: 'tcp_wrap' | 'net.Socket';
  /** Starts an attempt at `now` (performance.now()), or says at once why none could be started. */
  start(port: number, now: number, deadline: number): Attempt | 'busy' | 'closed';
}

const errno = new Map([...util.getSystemErrorMap()].map(([code, [name]]) => [code, name] as const));
const codeOf = (status: number) => errno.get(status) ?? 'UNKNOWN';
// Descriptor or source-port exhaustion says nothing about the port; the scheduler retries it later.
const busyCodes = new Set(['EMFILE', 'ENFILE', 'EADDRNOTAVAIL', 'ENOBUFS']);

function classify(code: string): Outcome {
  return code === 'ECONNREFUSED' ? 'refused' : busyCodes.has(code) ? 'busy' : 'closed';
}

// ---- fast path: the libuv TCP handle -------------------------------------------------------------

interface TcpHandle {
  connect(req: ConnectReq, address: string, port: number): number;
  connect6(req: ConnectReq, address: string, port: number): number;
  getsockname(out: { address?: string; port?: number }): number;
  close(): void;
}
interface ConnectReq {
  oncomplete: (this: ConnectReq, status: number) => void;
  attempt?: RawAttempt;
}
interface TcpBinding {
  TCP: new (type: number) => TcpHandle;
  TCPConnectWrap: new () => ConnectReq;
  constants: { SOCKET: number };
}

function loadTcpBinding(): TcpBinding | null {
  // Guard: the binding is internal; anything but the expected shape falls back to the public API.
  if (!scannerSettings().VIGIL_SCAN_RAW_TCP) {
    return null;
  }
  try {
    const binding = (process as unknown as { binding?: (name: string) => unknown }).binding?.('tcp_wrap') as
      Partial<TcpBinding> | undefined;
    const proto = binding?.TCP?.prototype as Partial<TcpHandle> | undefined;
    const ok =
      typeof binding?.TCPConnectWrap === 'function' &&
      typeof binding.constants?.SOCKET === 'number' &&
      typeof proto?.connect === 'function' &&
      typeof proto.connect6 === 'function' &&
      typeof proto.getsockname === 'function' &&
      typeof proto.close === 'function';
    return ok ? (binding as TcpBinding) : null;
  } catch {
    return null;
  }
}

let tcpBinding: TcpBinding | null | undefined;
/** The binding, looked up on first use (after the process has checked its settings). */
const fastBinding = (): TcpBinding | null =>
  tcpBinding === undefined ? (tcpBinding = loadTcpBinding()) : tcpBinding;

/** Whether attempts take the tcp_wrap fast path (engine 'auto') in this process. */
export const hasFastPath = (): boolean => fastBinding() !== null;

class RawAttempt implements Attempt {
  settled = false;
  constructor(
    readonly started: number,
    readonly port: number,
    public deadline: number,
    readonly handle: TcpHandle,
    readonly address: string,
    readonly report: OnOutcome,
  ) {}

  settle(outcome: Outcome): void {
    this.settled = true;
    this.handle.close();
    this.report(this, outcome, performance.now() - this.started);
  }

  cancel(): void {
    // Guard: closing the handle makes libuv complete the request with ECANCELED; report only once.
    if (!this.settled) {
      this.settle('timeout');
    }
  }
}

const sockname: { address?: string; port?: number } = {};

function onRawComplete(this: ConnectReq, status: number): void {
  const attempt = this.attempt;
  // Guard: a cancelled attempt already reported its timeout.
  if (!attempt || attempt.settled) {
    return;
  }
  if (status !== 0) {
    attempt.settle(classify(codeOf(status)));
    return;
  }
  // Guard: on loopback the kernel may pick the target port as our own source port and connect the
  // socket to itself ("simultaneous open"); that is no listening service.
  sockname.port = undefined;
  attempt.handle.getsockname(sockname);
  attempt.settle(sockname.port === attempt.port && sockname.address === attempt.address ? 'closed' : 'open');
}

function rawProber(binding: TcpBinding, address: string, report: OnOutcome): Prober {
  const v6 = net.isIPv6(address);
  return {
    kind: 'tcp_wrap',
    start(port, now, deadline) {
      const handle = new binding.TCP(binding.constants.SOCKET);
      const req = new binding.TCPConnectWrap();
      req.oncomplete = onRawComplete;
      const status = v6 ? handle.connect6(req, address, port) : handle.connect(req, address, port);
      if (status !== 0) {
        handle.close();
        return classify(codeOf(status)) === 'busy' ? 'busy' : 'closed';
      }
      const attempt = new RawAttempt(now, port, deadline, handle, address, report);
      req.attempt = attempt;
      return attempt;
    },
  };
}

// ---- fallback: net.Socket ------------------------------------------------------------------------

class SocketAttempt implements Attempt {
  settled = false;
  readonly socket: net.Socket;
  constructor(
    readonly started: number,
    readonly port: number,
    public deadline: number,
    address: string,
    readonly report: OnOutcome,
  ) {
    this.socket = net.connect({ host: address, port });
    this.socket.once('connect', () => {
      const s = this.socket;
      // Guard: a socket connected to itself (see above) is no listening service.
      this.settle(s.localPort === port && s.localAddress === s.remoteAddress ? 'closed' : 'open');
    });
    this.socket.on('error', (error: NodeJS.ErrnoException) => this.settle(classify(error.code ?? '')));
  }

  settle(outcome: Outcome): void {
    // Guard: connect, error and cancel can race; report only once.
    if (this.settled) {
      return;
    }
    this.settled = true;
    this.socket.destroy();
    this.report(this, outcome, performance.now() - this.started);
  }

  cancel(): void {
    this.settle('timeout');
  }
}

function socketProber(address: string, report: OnOutcome): Prober {
  return {
    kind: 'net.Socket',
    start: (port, now, deadline) => new SocketAttempt(now, port, deadline, address, report),
  };
}

/** The fast path when available; `engine: 'net.Socket'` forces the public API (benchmarks compare them). */
export function createProber(
  address: string,
  report: OnOutcome,
  engine: 'auto' | 'net.Socket' = 'auto',
): Prober {
  const binding = fastBinding();
  return binding && engine === 'auto' ? rawProber(binding, address, report) : socketProber(address, report);
}
