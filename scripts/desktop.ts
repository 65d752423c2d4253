// `npm run desktop`: builds what is missing and starts the Electron app against VIGIL_API_URL
// (default: the embedded stack on http://127.0.0.1:54321, which `npm start` runs).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { electronBinary, NO_ELECTRON, repoRoot } from './lib/electron-binary.ts';

const binary = electronBinary();
if (!binary) {
  console.error(`Cannot start the desktop app: ${NO_ELECTRON}`);
  process.exit(1);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
if (!existsSync(path.join(repoRoot, 'dist/web/index.html'))) {
  execFileSync(npm, ['run', '--silent', 'build:web'], { cwd: repoRoot, stdio: 'inherit' });
}
execFileSync(npm, ['run', '--silent', 'build:desktop'], { cwd: repoRoot, stdio: 'inherit' });
const child = spawn(binary, [repoRoot], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
