// The worker's browser engine: a system Chromium (Debian's /usr/bin/chromium, or CHROMIUM_PATH) driven
// by playwright-core, which never downloads a browser. Every request of every page is intercepted and
// answered by the scan's route (the policy-checked HTTP client); Chromium itself is given a proxy that
// cannot exist and a resolver that resolves nothing, so anything that would escape interception
// (preconnects, a redirect Chromium follows on its own, WebSockets, WebRTC) fails instead of reaching
// the network. (Interception alone is not enough: Chromium's loading predictor opens connections to hosts
// it saw on earlier loads of a page, frames and form targets included, before any request exists; the
// hosted-policy suite records such connections when these flags are left out.)
//
// The pages are hostile until shown otherwise: Chromium runs sandboxed under an unprivileged account
// (chromium-launch.ts), each renderer's JavaScript heap is capped, a watch over the whole process tree
// kills a renderer, or the browser, that uses too much memory, every call on a tab is bounded
// (chromium-tab.ts), and a stop of the scan ends every process of the browser within a second.
import { accessSync, constants } from 'node:fs';

import type { BrowserContext, Page } from 'playwright-core';

import { ScanBrowserStopped } from '../../../../shared/scan-browser.ts';
import type {
  ScanBrowser,
  ScanBrowserLauncher,
  ScanBrowserOptions,
  ScanBrowserTab,
} from '../../../../shared/scan-browser.ts';
import { settle } from '../../../../shared/settle.ts';
import { intercept } from './chromium-intercept.ts';
import { launchChromium, readPid, removeDirs } from './chromium-launch.ts';
import type { Launched } from './chromium-launch.ts';
import { ChromiumTab } from './chromium-tab.ts';
import { loadStretch, stretched } from './load-stretch.ts';
import { ProcessTree, watchMemory } from './process-tree.ts';
import type { Watch } from './process-tree.ts';

export const defaultChromiumPath = '/usr/bin/chromium';

const mb = 1024 * 1024;

/** What one scan's Chromium may take (docs/scanners/limits.md §4 lists them for customers). */
export const browserLimits = {
  /** A script run in a page (the crawl's snapshot, a form's filling) answers within this, or its tab is cut. */
  evaluateMs: 10_000,
  /** After a navigation that ran out of time: a page that runs `1` within this is only slow. */
  probeMs: 2_000,
  /** Opening a tab, closing a stuck one. */
  tabMs: 10_000,
  /** A close (or a stop) waits this long for Chromium to end by itself, then kills every process. */
  closeMs: 500,
  /** V8's old-generation heap of each renderer: a page past it crashes its own renderer, nothing more. */
  rendererHeapMb: 512,
  /** One renderer's own memory (heap, array buffers, DOM): past it, that renderer is killed. */
  rendererBytes: 768 * mb,
  /**
   * All of the browser's processes together: past it, the browser is killed and rendering stops. Under
   * the web scan's own cap for its whole process tree (2 GB, core/limits.ts), with room for the scan's
   * Node process, so that a hostile page costs the rendering, not the scan.
   */
  treeBytes: 1280 * mb,
  /** How often the process tree is measured (an allocating page grows by about 100 MB in that time). */
  watchEveryMs: 100,
};

/** The flags of a headless scan, then the ones that cut Chromium off from the network outside interception. */
export const chromiumFlags = [
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--dns-prefetch-disable',
  '--proxy-server=http://vigil-no-network.invalid:9',
  // Chromium sends loopback past any proxy unless told not to: loopback must fail like the rest.
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  `--js-flags=--max-old-space-size=${browserLimits.rendererHeapMb}`,
];

/** The Chromium to drive, if one is installed and executable here. */
export function findChromium(configured: string | undefined): string | null {
  const candidate = configured ?? defaultChromiumPath;
  try {
    accessSync(candidate, constants.X_OK);
    return candidate;
  } catch {
    return null;
  }
}

const megabytes = (bytes: number) => `${Math.round(bytes / mb)} MB`;

class ChromiumBrowser implements ScanBrowser {
  readonly engine = 'chromium' as const;
  readonly version: string;
  readonly sandbox: string;
  stopped: string | null = null;
  readonly limits = browserLimits;
  private readonly context: BrowserContext;
  private readonly tree: ProcessTree;
  private readonly watch: Watch;
  private lastKill: { reason: string; at: number } | null = null;
  private closing: Promise<void> | null = null;
  private readonly onAbort = () => {
    // The scan's own words when its stop carries them (a phase that reached its time limit).
    const detail = (this.options.signal?.reason as { detail?: unknown } | undefined)?.detail;
    this.stop(typeof detail === 'string' ? detail : 'the scan was stopped');
  };

  constructor(
    private readonly launched: Launched,
    private readonly options: ScanBrowserOptions,
  ) {
    this.context = launched.context;
    this.version = this.context.browser()?.version() ?? 'unknown';
    this.sandbox = launched.sandbox;
    this.tree = new ProcessTree(readPid(launched.dirs), launched.dirs.base);
    this.watch = watchMemory(
      this.tree,
      { rendererBytes: browserLimits.rendererBytes, treeBytes: browserLimits.treeBytes },
      browserLimits.watchEveryMs,
      {
        renderer: (pid, bytes) => {
          this.lastKill = {
            reason: `its renderer used ${megabytes(bytes)}, over the ${megabytes(browserLimits.rendererBytes)} cap: it was killed`,
            at: Date.now(),
          };
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Guard: it ended meanwhile.
          }
        },
        tree: (bytes) =>
          this.stop(
            `Chromium's processes used ${megabytes(bytes)} together, over the ${megabytes(browserLimits.treeBytes)} cap: the browser was killed and no further page was rendered`,
          ),
      },
    );
    this.context.on('close', () => {
      // Chromium ended without being asked (it crashed, or something killed it): every process goes.
      if (!this.closing) {
        this.stop('Chromium exited unexpectedly');
      }
    });
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
    if (options.signal?.aborted) {
      this.onAbort();
    }
  }

  /** Kills the browser now; the tabs' calls then throw ScanBrowserStopped. */
  stop(reason: string): void {
    this.stopped ??= reason;
    void this.close().catch(() => undefined);
  }

  assertRunning(): void {
    if (this.stopped) {
      throw new ScanBrowserStopped(this.stopped);
    }
  }

  crashReason(): string {
    // A kill explains one crash, the first to come soon after it.
    const kill = this.lastKill;
    this.lastKill = null;
    return kill && Date.now() - kill.at < 5000
      ? kill.reason
      : `its renderer crashed (out of memory: each renderer's JavaScript heap is capped at ${browserLimits.rendererHeapMb} MB, or a fault of its own)`;
  }

  cut(url: string, reason: string): void {
    this.options.onCut?.({ url, reason });
  }

  stretch(): number {
    return loadStretch();
  }

  async openPage(): Promise<Page> {
    this.assertRunning();
    const allowed = stretched(browserLimits.tabMs, this.stretch());
    const opened = await settle(this.context.newPage(), allowed.ms);
    if (opened === 'timeout' || 'error' in opened) {
      this.stop(
        opened === 'timeout'
          ? `a new tab did not open within ${allowed.words}: the browser was killed`
          : `a new tab could not be opened (${String(opened.error).split('\n')[0]})`,
      );
      this.assertRunning();
    }
    const page = (opened as { value: Page }).value;
    page.setDefaultTimeout(allowed.ms);
    // A dialog the init script could not stub (one opened by a frame's javascript: URL) is dismissed; a
    // "leave this page?" is accepted, or a page that asks it would keep the tab (and the crawl) forever.
    page.on(
      'dialog',
      (dialog) =>
        void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => undefined),
    );
    return page;
  }

  async discard(page: Page): Promise<void> {
    // Closing the page ends its renderer (and so a script that never yields); a browser that cannot even
    // do that is beyond use.
    const allowed = stretched(browserLimits.tabMs, this.stretch());
    const closed = await settle(page.close({ runBeforeUnload: false }), allowed.ms);
    if (closed === 'timeout') {
      this.stop(`a tab that stopped answering did not close within ${allowed.words}: the browser was killed`);
    }
  }

  async newTab(): Promise<ScanBrowserTab> {
    const tab = new ChromiumTab(this);
    await tab.open();
    return tab;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.options.signal?.removeEventListener('abort', this.onAbort);
      this.watch.stop();
      await settle(this.context.close(), browserLimits.closeMs);
      // Whatever did not end by itself in time (a renderer in a loop, the crash handlers) is killed.
      this.tree.killAll();
      await removeDirs(this.launched.dirs);
    })();
    return this.closing;
  }

  /** The largest memory the browser's processes held together, in bytes. */
  get peakBytes(): number {
    return this.watch.peak;
  }
}

/** Starts Debian's Chromium (or `executablePath`) for one scan. */
export function chromiumLauncher(executablePath: string): ScanBrowserLauncher {
  return async (options) => {
    options.signal?.throwIfAborted();
    const launched = await launchChromium(executablePath, chromiumFlags);
    const browser = new ChromiumBrowser(launched, options);
    try {
      await intercept(launched.context, options);
    } catch (error) {
      await browser.close();
      throw error;
    }
    return browser;
  };
}
