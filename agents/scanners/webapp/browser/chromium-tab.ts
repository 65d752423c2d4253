// One tab of the scan's Chromium, bounded: every navigation and every script has a deadline, and a page
// that stops answering (a script that never yields) or whose renderer died is closed (which ends its
// renderer, and so its CPU) and replaced by a fresh page, which the tab's next call uses. The cut is
// reported to the scan, and thrown as ScanTabCut so the caller leaves that page.
import type { Page } from 'playwright-core';

import { ScanTabCut } from '../../../../shared/scan-browser.ts';
import type { ScanBrowserTab } from '../../../../shared/scan-browser.ts';
import { settle } from '../../../../shared/settle.ts';
import { stretched } from './load-stretch.ts';

/** What a tab needs from its browser. */
export interface TabHost {
  openPage(): Promise<Page>;
  /** Closes a page that stopped answering; kills the browser when even that does not finish. */
  discard(page: Page): Promise<void>;
  /** Throws ScanBrowserStopped once the browser is gone. */
  assertRunning(): void;
  /** Why a renderer died (the memory watch killed it, or a crash of its own). */
  crashReason(): string;
  cut(url: string, reason: string): void;
  limits: { evaluateMs: number; probeMs: number };
  /** How much longer deadlines run on this host now (its load: load-stretch.ts); 1 on a quiet host. */
  stretch(): number;
}

export class ChromiumTab implements ScanBrowserTab {
  private page: Page | null = null;
  private crashed: string | null = null;
  /** What the tab works on, for the report of a cut. */
  private at = 'about:blank';
  /** The page has answered since it was loaded (a fresh page has nothing left running). */
  private used = false;

  constructor(private readonly host: TabHost) {}

  private async current(): Promise<Page> {
    this.host.assertRunning();
    if (!this.page || this.page.isClosed()) {
      const page = await this.host.openPage();
      page.on('crash', () => {
        // A page already dropped (its renderer killed to close it) is not the current one's crash.
        if (this.page === page) {
          this.crashed = this.host.crashReason();
        }
      });
      this.page = page;
      this.crashed = null;
      this.used = false;
    }
    return this.page;
  }

  /** Reports the cut and replaces the page. */
  private async drop(url: string, reason: string): Promise<void> {
    this.host.cut(url, reason);
    const old = this.page;
    this.page = null;
    if (old) {
      await this.host.discard(old);
    }
    this.host.assertRunning();
  }

  private async cut(url: string, reason: string): Promise<never> {
    await this.drop(url, reason);
    throw new ScanTabCut(url, reason);
  }

  /** Whether the page runs a trivial script within the probe's time. */
  private async answers(page: Page): Promise<boolean> {
    const result = await settle(page.evaluate('1'), this.wait(this.host.limits.probeMs).ms);
    return result !== 'timeout';
  }

  /** A deadline of `ms` on a quiet host, stretched for this one's load now. */
  private wait(ms: number) {
    return stretched(ms, this.host.stretch());
  }

  /** Opens the tab's first page now (so a browser that cannot open one fails before the crawl starts). */
  async open(): Promise<void> {
    await this.current();
  }

  async goto(url: string, timeoutMs: number): Promise<void> {
    let page = await this.current();
    // A page left behind may have started a script that never yields after the crawl was done with it:
    // it is the one cut, not the next page, whose navigation would wait on that renderer.
    if (this.crashed) {
      await this.drop(this.at, this.crashed);
      page = await this.current();
    } else if (this.used && !(await this.answers(page))) {
      await this.drop(this.at, 'its script kept the tab busy after the page was read: the tab was closed');
      page = await this.current();
    }
    // The blank page a visit passes through: what goes wrong meanwhile is the page being left's doing.
    this.at = url === 'about:blank' ? this.at : url;
    const allowed = this.wait(timeoutMs);
    // Playwright's own timeout ends the wait; the margin covers a browser too busy to report it.
    const loaded = await settle(
      page.goto(url, { timeout: allowed.ms, waitUntil: 'load' }),
      allowed.ms + 2000,
    );
    this.host.assertRunning();
    if (this.crashed) {
      await this.cut(this.at, this.crashed);
    }
    const late = loaded === 'timeout' || ('error' in loaded && /timeout/i.test(String(loaded.error)));
    // A page that loads slowly but answers is only slow: it is read as far as it got.
    if (late && !(await this.answers(page))) {
      await this.cut(
        this.at,
        `did not finish loading within ${allowed.words} and stopped answering (a script that never yields)`,
      );
    }
    this.used = true;
  }

  async evaluate<T>(expression: string, timeoutMs = this.host.limits.evaluateMs): Promise<T> {
    const page = await this.current();
    const allowed = this.wait(timeoutMs);
    const result = await settle(page.evaluate<T>(expression), allowed.ms);
    this.host.assertRunning();
    if (this.crashed) {
      await this.cut(this.at, this.crashed);
    }
    if (result === 'timeout') {
      await this.cut(this.at, `a script in the page ran for over ${allowed.words} without yielding`);
    }
    if (typeof result === 'object' && 'error' in result) {
      throw result.error;
    }
    return (result as { value: T }).value;
  }

  url(): Promise<string> {
    return Promise.resolve(this.page && !this.page.isClosed() ? this.page.url() : 'about:blank');
  }
}
