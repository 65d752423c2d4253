// Starting Chromium for one scan with its sandbox on. Chromium refuses its sandbox as root, and a browser
// running as root renders pages strangers write with every right on the machine: as root, the scan starts
// it under an unprivileged account (`vigil-browser` when the machine has one, else `nobody`) through
// setpriv, from a small launch script in a directory of the scan's own. Its profile and home belong to that
// account; Playwright's pipes are inherited descriptors, which a change of user keeps. Where the sandbox
// cannot start (no user namespaces and no setuid helper, or a root inside a user namespace that maps no
// other account), it starts without, and the scan's report says why.
import { execFileSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  chownSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { BrowserContext } from 'playwright-core';

export interface Account {
  name: string;
  uid: number;
  gid: number;
}

/** The account Chromium runs under when the scan runs as root: a dedicated one, if the machine has it. */
export const browserAccounts = ['vigil-browser', 'nobody'];

function lookUp(name: string): Account | null {
  try {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, name], { encoding: 'utf8', timeout: 5000, stdio: 'pipe' }).trim());
    const uid = id('-u');
    const gid = id('-g');
    return uid > 0 && gid > 0 ? { name, uid, gid } : null;
  } catch {
    return null;
  }
}

function setprivPath(): string | null {
  for (const candidate of ['/usr/bin/setpriv', '/bin/setpriv']) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not there: the next one.
    }
  }
  return null;
}

/** Whether this process's user namespace maps `uid` (a root inside `unshare --user` maps only itself). */
function mapped(uid: number): boolean {
  try {
    return readFileSync('/proc/self/uid_map', 'utf8')
      .trim()
      .split('\n')
      .some((line) => {
        const [inside, , count] = line.trim().split(/\s+/).map(Number);
        return uid >= inside! && uid < inside! + count!;
      });
  } catch {
    return true;
  }
}

/**
 * Who Chromium should run as: null when the scan is not root (it runs as the scan's own user then), or
 * why no unprivileged account can be had.
 */
export function unprivilegedAccount(): Account | { none: string } | null {
  if (process.platform !== 'linux' || process.geteuid?.() !== 0) {
    return null;
  }
  for (const name of browserAccounts) {
    const account = lookUp(name);
    if (account) {
      return mapped(account.uid)
        ? account
        : { none: `running as root in a user namespace that maps no other account (not ${name})` };
    }
  }
  return { none: `running as root and no unprivileged account (${browserAccounts.join(', ')}) exists` };
}

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The scan's browser directory: launch script and pid file (root's), home and profile (the account's). */
export interface BrowserDirs {
  base: string;
  home: string;
  profile: string;
  script: string;
}

function makeDirs(executable: string, account: Account | null, setpriv: string | null): BrowserDirs {
  // The pid names the directory, so that a test (or an operator) can tell this process's browsers apart.
  const base = mkdtempSync(path.join(tmpdir(), `vigil-browser-${process.pid}-`));
  const home = path.join(base, 'home');
  const profile = path.join(base, 'profile');
  const script = path.join(base, 'launch.sh');
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(profile, { mode: 0o700 });
  const run =
    account && setpriv
      ? `exec ${setpriv} --reuid=${account.uid} --regid=${account.gid} --clear-groups -- ${quote(executable)} "$@"`
      : `exec ${quote(executable)} "$@"`;
  // The pid file sits in the scan's directory, which only the scan's user may write: a compromised
  // browser cannot point the scan's kill at another process.
  writeFileSync(script, `#!/bin/sh\necho $$ > ${quote(path.join(base, 'pid'))}\n${run}\n`, { mode: 0o700 });
  if (account) {
    chownSync(home, account.uid, account.gid);
    chownSync(profile, account.uid, account.gid);
    // The account may pass through to its own two folders, and read nothing else here.
    chmodSync(base, 0o711);
  }
  return { base, home, profile, script };
}

export function readPid(dirs: BrowserDirs): number | null {
  try {
    const pid = Number(readFileSync(path.join(dirs.base, 'pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 1 ? pid : null;
  } catch {
    return null;
  }
}

export async function removeDirs(dirs: BrowserDirs): Promise<void> {
  await rm(dirs.base, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
}

export interface Launched {
  context: BrowserContext;
  dirs: BrowserDirs;
  /** For the report: "on, as nobody (uid 65534)", or "off: <why>". */
  sandbox: string;
}

interface Attempt {
  account: Account | null;
  sandbox: boolean;
}

/** The line of a failed launch that says why (Chromium's own FATAL or sandbox message, if it left one). */
export function launchFailure(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map((line) => line.replace(/^\[pid=\d+\]\[err\]\s*/, '').trim())
    .filter((line) => line.length > 0);
  const telling =
    lines.find((line) => /sandbox|setpriv|FATAL|No such file|Permission denied/i.test(line)) ??
    lines.find((line) => !/^browserType\./.test(line)) ??
    lines[0] ??
    'unknown error';
  return telling.slice(0, 300);
}

/**
 * Starts Chromium with the sandbox on if it can, then without (under the unprivileged account first, as
 * the scan's own user last). Throws the first attempt's error when none starts.
 */
export async function launchChromium(executable: string, args: string[]): Promise<Launched> {
  const found = unprivilegedAccount();
  const setpriv = setprivPath();
  const account = found !== null && !('none' in found) && setpriv ? found : null;
  const asRoot = found !== null && !account;
  const attempts: Attempt[] = [
    ...(asRoot ? [] : [{ account, sandbox: true }]),
    ...(account ? [{ account, sandbox: false }] : []),
    { account: null, sandbox: false },
  ];
  const failures: string[] = [];
  if (asRoot) {
    failures.push(
      found && 'none' in found ? found.none : 'running as root and setpriv (util-linux) is missing',
    );
  }
  // playwright-core (a large CommonJS bundle) loads with the first browser: it was most of every scan
  // process's start-up, rendered crawl or not.
  const { chromium } = await import('playwright-core');
  for (const attempt of attempts) {
    let dirs: BrowserDirs | null = null;
    try {
      dirs = makeDirs(executable, attempt.account, setpriv);
      const context = await chromium.launchPersistentContext(dirs.profile, {
        // Windows runs no shell script: Chromium is started directly (and its pid is not known).
        executablePath: process.platform === 'win32' ? executable : dirs.script,
        headless: true,
        chromiumSandbox: attempt.sandbox,
        args,
        // Only what Chromium needs: the scan's environment (service keys, tokens) stays out of its reach.
        env: {
          HOME: dirs.home,
          XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
          XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
          PATH: '/usr/local/bin:/usr/bin:/bin',
          TMPDIR: '/tmp',
          LANG: 'C.UTF-8',
        },
        timeout: 30_000,
        // The scan owns Ctrl-C and stops: Playwright must not close the browser or exit the process itself.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        serviceWorkers: 'block',
        acceptDownloads: false,
        ignoreHTTPSErrors: true,
      });
      const who = attempt.account ? `as ${attempt.account.name} (uid ${attempt.account.uid})` : '';
      const sandbox = attempt.sandbox
        ? `on${who ? `, ${who}` : ''}`
        : `off${who ? ` (${who})` : ''}: ${failures.join('; ')}`;
      return { context, dirs, sandbox };
    } catch (error) {
      if (dirs) {
        await removeDirs(dirs);
      }
      failures.push(
        `${attempt.sandbox ? 'the sandbox did not start' : 'Chromium did not start'}${attempt.account ? ` as ${attempt.account.name}` : ''} (${launchFailure(error)})`,
      );
      if (attempts.indexOf(attempt) === attempts.length - 1) {
        throw new Error(failures.join('; '), { cause: error });
      }
    }
  }
  throw new Error(failures.join('; '));
}
