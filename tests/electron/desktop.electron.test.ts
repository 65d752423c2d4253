// The desktop app end to end with Playwright's Electron driver: launch, window shown, the narrow bridge,
// a deep link routed, a vault round trip, and a native notification for a finished scan. It runs wherever
// Electron's binary is installed; elsewhere (this repository's CI machines) it is skipped for
// `electron-binary`, the one requirement CI may lack.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electronBinary, NO_ELECTRON, repoRoot } from '../../scripts/lib/electron-binary.ts';
import type { VigilBridge } from '../../electron/preload/index.ts';
import type { RunningStack } from '../../server/stack.ts';
import { requires } from '../helpers/requirements.ts';
import { client, startTestStack } from '../helpers/stack.ts';

/** What the page's global object holds (evaluated in the renderer, where these casts vanish). */
type Win = { vigil: VigilBridge };

const binary = electronBinary();
const electron = binary ? null : { requirement: 'electron-binary', detail: NO_ELECTRON };

describe('desktop app (Playwright _electron)', requires(electron), () => {
  let stack: RunningStack;
  let app: ElectronApplication;
  let page: Page;
  let stdout = '';

  beforeAll(async () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    if (!existsSync(path.join(repoRoot, 'dist/web/index.html'))) {
      execFileSync(npm, ['run', '--silent', 'build:web'], { cwd: repoRoot, stdio: 'inherit' });
    }
    execFileSync(npm, ['run', '--silent', 'build:desktop'], { cwd: repoRoot, stdio: 'inherit' });
    stack = await startTestStack();
    app = await _electron.launch({
      executablePath: binary!,
      args: [repoRoot],
      env: { ...(process.env as Record<string, string>), VIGIL_API_URL: stack.url },
    });
    app.process().stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await stack?.close();
  });

  it('shows the main window on the app:// origin', async () => {
    await expect
      .poll(() => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.isVisible()))
      .toBe(true);
    expect(page.url()).toMatch(/^app:\/\/vigil\//);
  });

  it('exposes only the narrow bridge, and no Node', async () => {
    const surface = await page.evaluate(() => ({
      keys: Object.keys((globalThis as unknown as Win).vigil).sort(),
      vault: Object.keys((globalThis as unknown as Win).vigil.vault).sort(),
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
    }));
    expect(surface).toEqual({
      keys: ['config', 'onDeepLink', 'openExternal', 'platform', 'saveReport', 'vault'],
      vault: ['getItem', 'removeItem', 'setItem', 'status'],
      require: 'undefined',
      process: 'undefined',
    });
  });

  it('routes a vigil:// link to the renderer as a typed message, and refuses a hostile one', async () => {
    const received = page.evaluate(
      () =>
        new Promise((resolve) => {
          const off = (globalThis as unknown as Win).vigil.onDeepLink((m) => {
            off();
            resolve(m);
          });
        }),
    );
    await app.evaluate(({ app: a }) => {
      a.emit('open-url', { preventDefault() {} }, 'vigil://evil/path?x=1');
      a.emit('open-url', { preventDefault() {} }, 'vigil://dashboard/alerts');
    });
    expect(await received).toEqual({ route: '/dashboard/alerts', params: {} });
  });

  it('keeps the session in the vault and refuses other keys', async () => {
    const result = await page.evaluate(async () => {
      const vault = (globalThis as unknown as Win).vigil.vault;
      await vault.setItem('sb-127-auth-token-code-verifier', 'verifier-value');
      const back = await vault.getItem('sb-127-auth-token-code-verifier');
      await vault.removeItem('sb-127-auth-token-code-verifier');
      const refused = await vault.setItem('not-an-auth-key', 'x').then(
        () => false,
        () => true,
      );
      return { back, gone: await vault.getItem('sb-127-auth-token-code-verifier'), refused };
    });
    expect(result).toEqual({ back: 'verifier-value', gone: null, refused: true });
  });

  it('shows a native notification when a scan of the signed-in user finishes', async () => {
    const admin = client(stack, 'service_role');
    const email = `desktop-${Date.now()}@example.test`;
    const password = 'correct horse battery staple 42';
    const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
    const signIn = await client(stack).auth.signInWithPassword({ email, password });
    const session = JSON.stringify(signIn.data.session);
    // The renderer's supabase-js would write this after signing in; the tray's watcher follows the vault.
    await page.evaluate(
      (s) => (globalThis as unknown as Win).vigil.vault.setItem('sb-127-auth-token', s),
      session,
    );
    await expect.poll(() => stdout, { timeout: 15_000 }).toContain('realtime subscribed');
    const scan = await admin
      .from('scan_results')
      .insert({ user_id: created.data.user!.id, scan_type: 'api', status: 'in_progress' })
      .select('id')
      .single();
    await admin
      .from('scan_results')
      .update({ status: 'completed', severity_level: 'low' })
      .eq('id', scan.data!.id);
    await expect
      .poll(() => stdout, { timeout: 15_000 })
      .toContain(`notification shown: scan:${scan.data!.id}`);
  });
});
