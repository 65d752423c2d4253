// The scan process: runs one scan for its parent (scan-process.ts) and streams what it finds as it goes,
// so that whatever ends this process (its time limit, its memory cap, a crash in a library, a cancel) the
// parent still holds every finding made before. Nothing here may end the process early on its own: an
// unhandled rejection or exception is reported to the parent as a warning and the scan goes on; the
// parent's limits bound it anyway. When the parent goes away, the scan stops and the process exits.
import { inertText } from '../core/inert-text.ts';
import { scanStop } from '../core/scan-stopped.ts';
import { runScan } from '../run-scan.ts';
import { TargetRefusedError } from '../target-policy.ts';
import type { FromChild, ToChild } from './messages.ts';

const controller = new AbortController();

function send(message: FromChild): void {
  // Guard: the parent may be gone; nothing is left to tell then.
  if (process.connected) {
    process.send?.(message);
  }
}

function warn(kind: string, error: unknown): void {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  send({ type: 'warning', message: inertText(`${kind}: ${text}`, 500) });
}

process.on('unhandledRejection', (reason) => warn('unhandled rejection', reason));
process.on('uncaughtException', (error) => warn('uncaught exception', error));

// Without a parent nobody reads the result: stop, give the browser a moment to close, and leave.
process.on('disconnect', () => {
  controller.abort(scanStop('cancelled', 'the process that started the scan went away'));
  setTimeout(() => process.exit(0), 2000).unref();
});

process.on('message', (raw: ToChild) => {
  if (raw.type === 'stop') {
    controller.abort(raw.stop);
    send({ type: 'stopping', reason: raw.stop.reason });
    return;
  }
  if (raw.type !== 'start') {
    return;
  }
  const { scanType, options } = raw;
  runScan(scanType, {
    target: options.target,
    mode: options.mode,
    ...(options.ports === undefined ? {} : { ports: options.ports }),
    ...(options.openapi === undefined ? {} : { openapi: options.openapi }),
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
    ...(options.login === undefined ? {} : { login: options.login }),
    // Guard: only an explicit true from the parent allows checks that change the target.
    allowIntrusive: options.allowIntrusive === true,
    ...(options.render === false ? { browser: null } : {}),
    timeLimitMs: options.timeLimitMs,
    signal: controller.signal,
    onProgress: (progress) => send({ type: 'progress', progress }),
    onFinding: (finding) => send({ type: 'finding', finding }),
  }).then(
    (result) => send({ type: 'result', result, peakRssMb: Math.ceil(process.resourceUsage().maxRSS / 1024) }),
    (error: unknown) =>
      send({
        type: 'error',
        name: error instanceof Error ? error.name : 'Error',
        message: inertText(error instanceof Error ? error.message : String(error), 1000),
        ...(error instanceof TargetRefusedError ? { target: error.target, reason: error.reason } : {}),
      }),
  );
});
