import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { ScanTabCut } from '../../../../shared/scan-browser.ts';
import { ChromiumTab, type TabHost } from './chromium-tab.ts';

/** A page whose scripts answer after `answerMs` (a renderer that gets a share of a core at best). */
function slowPage(answerMs: number): Page {
  const page = {
    closed: false,
    isClosed: () => page.closed,
    evaluate: () => new Promise((resolve) => setTimeout(() => resolve('Title'), answerMs)),
    goto: () => new Promise((resolve) => setTimeout(() => resolve(null), answerMs)),
    on: () => page,
    url: () => 'http://site.test/',
  };
  return page as unknown as Page;
}

function host(stretch: number, answerMs: number) {
  const cuts: { url: string; reason: string }[] = [];
  const discarded: Page[] = [];
  const tabHost: TabHost = {
    openPage: () => Promise.resolve(slowPage(answerMs)),
    discard: (page) => {
      discarded.push(page);
      return Promise.resolve();
    },
    assertRunning: () => undefined,
    crashReason: () => 'crashed',
    cut: (url, reason) => cuts.push({ url, reason }),
    limits: { evaluateMs: 10_000, probeMs: 2_000 },
    stretch: () => stretch,
  };
  return { tabHost, cuts, discarded };
}

describe('a tab on a loaded host', () => {
  it('waits for a slow page as much longer as the load stretches its deadlines, and cuts it past them', async () => {
    const loaded = host(3, 200);
    const tab = new ChromiumTab(loaded.tabHost);
    await tab.open();
    expect(await tab.evaluate<string>('document.title', 100)).toBe('Title');
    expect(loaded.cuts).toEqual([]);

    const quiet = host(1, 200);
    const other = new ChromiumTab(quiet.tabHost);
    await other.open();
    await expect(other.evaluate('document.title', 100)).rejects.toBeInstanceOf(ScanTabCut);
    expect(quiet.cuts).toEqual([
      { url: 'about:blank', reason: 'a script in the page ran for over 100 ms without yielding' },
    ]);
    expect(quiet.discarded).toHaveLength(1);
  });

  it('names the stretched deadline when even that ran out', async () => {
    const loaded = host(2, 400);
    const tab = new ChromiumTab(loaded.tabHost);
    await tab.open();
    await expect(tab.evaluate('document.title', 100)).rejects.toBeInstanceOf(ScanTabCut);
    expect(loaded.cuts[0]?.reason).toBe(
      'a script in the page ran for over 100 ms (200 ms on this host, 2× for its load) without yielding',
    );
  });
});
