// The target's rate limit as the target sees it: a proxy in front of each fixture counts arrivals, and
// no window of one or three seconds may hold more requests than the limit allows, whatever the scanners'
// concurrency (give or take what a loaded machine holds a request up on its way: mostInWindow).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runIsolatedScan } from '../../agents/scanners/isolation/scan-process.ts';
import { runScan } from '../../agents/scanners/run-scan.ts';
import type { ScanType } from '../../shared/findings.ts';
import { countingProxy, mostInWindow } from '../fixtures/counting-proxy.ts';
import { chromium } from '../fixtures/debian-packages.ts';
import type { CountingProxy } from '../fixtures/counting-proxy.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { startVulnerableApi } from '../fixtures/web/vulnerable-api.ts';
import { startVulnerableWebapp } from '../fixtures/web/vulnerable-webapp.ts';
import { budget, scaler } from '../helpers/budget.ts';
import { requires } from '../helpers/requirements.ts';

describe('per-target rate limit', () => {
  let app: RunningFixture;
  let api: RunningFixture;
  const proxies: CountingProxy[] = [];
  beforeAll(async () => {
    [app, api] = await Promise.all([startVulnerableWebapp(), startVulnerableApi()]);
  });
  afterAll(async () => {
    await Promise.all([...proxies.map((p) => p.close()), app.close(), api.close()]);
  });

  /**
   * Scans through a fresh proxy for `seconds`, then stops the scan. In this process, or (`ownProcess`) in
   * a scan process of its own as the worker runs scans, its `seconds` counted from the first request the
   * target saw (the process takes a moment to start).
   */
  async function scanFor(
    type: ScanType,
    upstream: string,
    rateLimit: number | undefined,
    seconds: number,
    how: 'html' | 'rendered' | 'own process' = 'html',
  ) {
    const proxy = await countingProxy(upstream);
    proxies.push(proxy);
    const controller = new AbortController();
    let stoppedAt = 0;
    const stop = () => {
      stoppedAt = Date.now();
      controller.abort();
    };
    const limit = rateLimit === undefined ? {} : { rateLimit };
    let timer = how === 'own process' ? undefined : setTimeout(stop, seconds * 1000);
    const firstRequest = setInterval(() => {
      if (timer === undefined && proxy.arrivals.length > 0) {
        timer = setTimeout(stop, seconds * 1000);
      }
    }, 10);
    // A scan process that never reaches the target is stopped all the same (the assertions then fail).
    const startDeadline = setTimeout(() => timer ?? stop(), 60_000);
    try {
      const result =
        how === 'own process'
          ? await runIsolatedScan(type, {
              target: proxy.target,
              mode: 'local',
              signal: controller.signal,
              render: false,
              ...limit,
            })
          : await runScan(type, {
              target: proxy.target,
              mode: 'local',
              signal: controller.signal,
              ...limit,
              // The pacing itself is measured on the HTML crawl: starting Chromium is time without requests.
              ...(how === 'rendered' ? {} : { browser: null }),
            });
      /** Seconds from the first request the target saw to the stop: the scan's time of sending. */
      const sending = (stoppedAt - Math.min(...proxy.arrivals)) / 1000;
      return { proxy, result, sending };
    } finally {
      clearInterval(firstRequest);
      clearTimeout(startDeadline);
      clearTimeout(timer);
    }
  }

  // How long each pair sends. Over 3.5 s, a stall of one scan process for a second, or its opening
  // requests (reaching the target, robots.txt, sitemaps: one after another) slowed by a loaded host, weighs
  // too much: a CI run's paced web scan sent 35 of the 54 allowed. The web scan has work for far longer and
  // is measured over 8 s; the API scan's whole work is 28 requests, so it keeps 3.5 s (and ends partial).
  it.each([
    ['webapp', 15, 8],
    ['api', 8, 3.5],
  ] as const)('keeps a %s scan within %i requests per second', async (type, rate, seconds) => {
    const upstream = type === 'webapp' ? app.target : api.target;
    // The same scan without a limit, side by side with the limited one: both see the same machine, and a
    // loaded machine may send less than the limit allows. The limited scan must keep up with the smaller.
    // Each runs in a scan process of its own, as the worker runs scans: in one process the free scan's
    // work would hold up the paced one's timers, which no deployed scan has to share.
    const [{ proxy: free }, { proxy, result, sending }] = await Promise.all([
      scanFor(type, upstream, undefined, seconds, 'own process'),
      scanFor(type, upstream, rate, seconds, 'own process'),
    ]);
    // As the target counts them, give or take what a loaded machine holds a request up on its way.
    expect(proxy.peak(1000)).toBeLessThanOrEqual(mostInWindow(rate, 1000));
    expect(proxy.peak(3000)).toBeLessThanOrEqual(mostInWindow(rate, 3000));
    expect(proxy.arrivals.length).toBeGreaterThan(0);
    // It does scan at that rate, not at a fraction of it, from its first request to the stop. 70 % is the
    // bound: a pacer that waits half as long again fails it, while a loaded host may hold a paced scan's
    // timers up a little (in processes of their own beside six busy ones: 48 to 51 requests of the 52.6
    // the limit allowed, and all 28 of the API's 28; the free scans sent 950 and 62).
    expect(proxy.arrivals.length).toBeGreaterThanOrEqual(
      Math.min(rate * sending, free.arrivals.length) * 0.7,
    );
    expect(result.partial).toBe(true);
  });

  it(
    'keeps the pages Chromium renders within the limit too (every browser request goes through it)',
    // Chromium started, a scan of at least 6 s, and the browser closed: about 15 s on a quiet machine.
    { ...requires(chromium()), timeout: budget(15_000) },
    async () => {
      // Six seconds on a quiet machine: Chromium must have started and rendered within them.
      const seconds = Math.max(6000, scaler()(2000)) / 1000;
      const { proxy, result } = await scanFor('webapp', app.target, 15, seconds, 'rendered');
      expect(result.crawl?.engine, JSON.stringify(result.crawl)).toBe('chromium');
      expect(result.crawl?.rendered).toBeGreaterThan(0);
      expect(proxy.peak(1000)).toBeLessThanOrEqual(mostInWindow(15, 1000));
      expect(proxy.peak(3000)).toBeLessThanOrEqual(mostInWindow(15, 3000));
    },
  );

  it('is what makes the difference: without a limit the same scan bursts far above it', async () => {
    const { proxy } = await scanFor('webapp', app.target, undefined, 1.5);
    expect(proxy.peak(1000)).toBeGreaterThan(mostInWindow(15, 1000));
  });
});
