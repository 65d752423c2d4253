// The web app's build (vite) when `npm start` finds none: it runs beside the stack's start, so the API
// answers within seconds while the web app builds, and the stack serves its "not built yet" page until then.
// The build goes to a folder of its own and is moved into place whole: the stack never serves half a build.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from './electron-binary.ts';

export interface WebBuild {
  /** Resolves true once the web app is in place, false when the build failed or was stopped. */
  done: Promise<boolean>;
  stop(): void;
}

export function buildWebApp(webDir: string, log: (line: string) => void): WebBuild {
  const work = `${webDir}.building-${process.pid}`;
  // vite's own command, run by this Node: an `npm run` around it would cost a process and a second.
  const vite = path.join(repoRoot, 'node_modules/vite/bin/vite.js');
  let child: ChildProcess | null = null;
  let stopped = false;
  const done = new Promise<boolean>((resolve) => {
    if (!existsSync(vite)) {
      log('  web app    cannot be built: vite is not installed (run npm install)');
      resolve(false);
      return;
    }
    child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: repoRoot,
      env: { ...process.env, VIGIL_WEB_DIR: work },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', (error) => {
      log(`  web app    build could not start: ${error.message}`);
      resolve(false);
    });
    child.on('exit', (code) => resolve(code === 0 && !stopped));
  }).then(async (ok) => {
    if (ok && !existsSync(webDir)) {
      await rename(work, webDir);
      return true;
    }
    await rm(work, { recursive: true, force: true });
    return ok;
  });
  return {
    done,
    stop() {
      stopped = true;
      child?.kill('SIGTERM');
    },
  };
}
