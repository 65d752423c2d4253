// `npm start`: builds what is missing, runs the embedded stack (API, mail outbox, web app) on
// http://127.0.0.1:54321 by default, prints the URL, and launches the desktop app when Electron's
// binary is installed (saying plainly when it is not).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runStack } from '../server/main.ts';
import { electronBinary } from './lib/electron-binary.ts';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const scripts = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

function buildIfMissing(output: string, script: string, what: string): void {
  if (existsSync(path.join(root, output)) || !scripts[script]) {
    return;
  }
  console.log(`Building the ${what} (first start only)…`);
  execFileSync(npm, ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
}

buildIfMissing('dist/web/index.html', 'build:web', 'web app');
const started = performance.now();
const stack = await runStack();
console.log(
  `\nVigil is running at ${stack.url}  (stack started in ${Math.round(performance.now() - started)} ms)`,
);
console.log(`  web app    ${stack.url}/`);
console.log(`  mail       ${stack.status.mail_url}`);
console.log(`  database   ${stack.status.db}`);
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
