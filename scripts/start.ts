// `npm start`: builds what is missing, runs the embedded stack (API, mail outbox, web app) on
// http://127.0.0.1:54321 by default, prints the URL, and launches the desktop app when Electron's
// binary is installed (saying plainly when it is not).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SettingsError } from '../shared/settings.ts';
import { processSettings } from '../server/config.ts';
import { runStack } from '../server/main.ts';
import { defaultWebDir } from '../server/web/routes.ts';
import { createServiceClient } from '../agents/queue/client.ts';
import { scannerSettings } from '../agents/scanners/core/settings.ts';
import { startAgent } from '../agents/worker/agent.ts';
import { logUnhandledRejections } from '../agents/lib/process-guard.ts';
import { electronBinary } from './lib/electron-binary.ts';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const scripts = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

function buildIfMissing(output: string, script: string, what: string, args: string[] = []): void {
  if (existsSync(path.resolve(root, output)) || !scripts[script]) {
    return;
  }
  console.log(`Building the ${what} (first start only)…`);
  execFileSync(npm, ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
    cwd: root,
    stdio: 'inherit',
  });
}

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
// Warnings and errors only: vite's per-chunk listing says nothing a user of npm start needs.
buildIfMissing(path.join(defaultWebDir(), 'index.html'), 'build:web', 'web app', ['--logLevel', 'warn']);
const started = performance.now();
const stack = await runStack();
// One agent worker in process (ARCHITECTURE §3), with the stack's own parsed settings: local mode (this
// machine's loopback and private targets may be scanned) unless VIGIL_LOCAL_MODE is false, off, no or 0.
const agent = startAgent({
  db: createServiceClient(stack.url, stack.status.service_role_key),
  mode: stack.ctx.config.localMode ? 'local' : 'hosted',
  credentialsKey: stack.ctx.credentialsKey,
  mail: stack.ctx.mailer,
});
console.log(
  `\nVigil is running at ${stack.url}  (stack started in ${Math.round(performance.now() - started)} ms)`,
);
// Browsers allow WebAuthn (biometric sign-in) on localhost but not on a bare IP address.
const webUrl = stack.url.replace('//127.0.0.1:', '//localhost:');
console.log(`  web app    ${webUrl}/`);
console.log(`  mail       ${stack.status.mail_url}`);
console.log(`  database   ${stack.status.db}`);
console.log(`  agents     one worker in process (${agent.worker.id})`);
console.log(`  status     npm run stack:status -- --json`);

const electron = electronBinary();
if (electron && scripts.desktop && !process.env.CI) {
  buildIfMissing('dist/electron/main.cjs', 'build:desktop', 'desktop app');
  console.log('  desktop    launching the Vigil desktop app');
  spawn(electron, [root], { stdio: 'inherit', env: { ...process.env, VIGIL_API_URL: stack.url } });
} else {
  console.log(
    electron
      ? '  desktop    not launched (no desktop build in this checkout yet)'
      : "  desktop    not launched: Electron's binary is not installed on this machine; use the web app above",
  );
}
