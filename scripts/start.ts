// `npm start`: builds what is missing, runs the embedded stack (API, mail outbox, web app) on
// http://127.0.0.1:54321 by default with one agent worker in process, prints the URL, and launches the
// desktop app when Electron's binary is installed (saying plainly when it is not). npm runs the built copy
// (dist/node/start.js, see scripts/launch.mjs); tests may run this file through tsx.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SettingsError } from '../shared/settings.ts';
import { processSettings } from '../server/config.ts';
import { AddressUnavailableError, startStack, type RunningStack } from '../server/stack.ts';
import { defaultWebDir } from '../server/web/routes.ts';
import { createServiceClient } from '../agents/queue/client.ts';
import { scannerSettings } from '../agents/scanners/core/settings.ts';
import { startAgent, type Agent } from '../agents/worker/agent.ts';
import { logUnhandledRejections } from '../agents/lib/process-guard.ts';
import { electronBinary, repoRoot as root } from './lib/electron-binary.ts';
import { settlesWithin, stopOnExit } from './lib/shutdown.ts';
import { buildWebApp, type WebBuild } from './lib/web-build.ts';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const scripts = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** Everything this process started, for the stop. */
const running: { stack?: RunningStack; agent?: Agent; web?: WebBuild; desktop?: ChildProcess } = {};

logUnhandledRejections();
// Every setting is read and checked once, before anything starts (a wrong value stops here, listed).
try {
  processSettings();
  scannerSettings();
} catch (e) {
  if (e instanceof SettingsError) {
    console.error(e.message);
    process.exit(1);
  }
  throw e;
}
// Installed before anything starts: a signal during start-up stops what has started so far.
stopOnExit(stop, { deadlineMs: 4500, log: (line) => console.log(line) });

const webDir = defaultWebDir();
if (!existsSync(path.join(webDir, 'index.html'))) {
  console.log('Building the web app (first start only); the API starts meanwhile…');
  running.web = buildWebApp(webDir, (line) => console.log(line));
}
try {
  running.stack = await startStack();
} catch (e) {
  if (e instanceof AddressUnavailableError) {
    const next = e.port === 65535 ? 54322 : e.port + 1;
    console.error(
      `Vigil cannot start: port ${e.port} on ${e.host} is ${e.reason === 'in use' ? 'already in use (another Vigil, or another program)' : e.reason}. ` +
        `Stop what uses it, or choose another port: VIGIL_PORT=${next} npm start`,
    );
    running.web?.stop();
    process.exit(1);
  }
  throw e;
}
const { stack } = running;
// One agent worker in process (docs/architecture.md §7), with the stack's own parsed settings: local mode (this
// machine's loopback and private targets may be scanned) unless VIGIL_LOCAL_MODE is false, off, no or 0.
running.agent = startAgent({
  db: createServiceClient(stack.url, stack.status.service_role_key),
  mode: stack.ctx.config.localMode ? 'local' : 'hosted',
  credentialsKey: stack.ctx.credentialsKey,
  mail: stack.ctx.mailer,
});
// performance.now() counts from this process's start.
console.log(
  `\nVigil is running at ${stack.url}  (ready ${Math.round(performance.now())} ms after the process started)`,
);
// Browsers allow WebAuthn (biometric sign-in) on localhost but not on a bare IP address.
const webUrl = stack.url.replace('//127.0.0.1:', '//localhost:');
console.log(
  `  web app    ${webUrl}/${running.web ? '  (building: the page says so until it is ready)' : ''}`,
);
console.log(`  mail       ${stack.status.mail_url}`);
console.log(`  database   ${stack.status.db}`);
console.log(`  agents     one worker in process (${running.agent.worker.id})`);
console.log(`  status     npm run stack:status -- --json`);
console.log(`  stop       Ctrl-C (or SIGTERM)`);

const webReady = running.web
  ? running.web.done.then((ok) => {
      console.log(
        ok ? '  web app    built: reload the page' : '  web app    build failed: npm run build:web',
      );
      return ok;
    })
  : Promise.resolve(true);

const electron = electronBinary();
if (electron && scripts.desktop && !process.env.CI) {
  if (await webReady) {
    if (!existsSync(path.join(root, 'dist/electron/main.cjs'))) {
      console.log('Building the desktop app (first start only)…');
      execFileSync(npm, ['run', '--silent', 'build:desktop'], { cwd: root, stdio: 'inherit' });
    }
    console.log('  desktop    launching the Vigil desktop app');
    running.desktop = spawn(electron, [root], {
      stdio: 'inherit',
      env: { ...process.env, VIGIL_API_URL: stack.url },
    });
  }
} else {
  console.log(
    electron
      ? '  desktop    not launched (no desktop build in this checkout yet)'
      : "  desktop    not launched: Electron's binary is not installed on this machine; use the web app above",
  );
}

/**
 * Stops everything this process started, within the shutdown's deadline: the agent worker first (a scan it
 * cannot finish at once is given up, its process tree and browser killed; the job is claimed again when its
 * lease runs out), the desktop app and a web build beside it, then the stack, which closes the database
 * after the last write it acknowledged.
 */
async function stop(): Promise<void> {
  running.web?.stop();
  const desktop = running.desktop ? endChild(running.desktop, 2000) : Promise.resolve();
  if (running.agent) {
    const agent = running.agent;
    const stopping = agent.stop();
    if (!(await settlesWithin(stopping, 1500))) {
      agent.worker.kill();
      await settlesWithin(stopping, 2000);
    }
  }
  await desktop;
  await running.stack?.close();
}

/** Asks a child process to end, and kills it if it has not within `graceMs`. */
async function endChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  if (!(await settlesWithin(exited, graceMs))) {
    child.kill('SIGKILL');
    await settlesWithin(exited, 500);
  }
}
