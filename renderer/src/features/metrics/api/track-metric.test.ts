import { afterEach, describe, expect, it } from 'vitest';

import { setMetricsSession } from './send-metrics.ts';
import { metricsQueue, trackMetric } from './track-metric.ts';

describe('trackMetric', () => {
  afterEach(() => {
    metricsQueue.clear();
    setMetricsSession(null);
  });

  it('records nothing for visitors', () => {
    expect(trackMetric('page_view')).toBe(false);
    expect(metricsQueue.size).toBe(0);
  });

  it('refuses malformed names and values before they reach the database', () => {
    // No keepalive client is needed here: the config load fails quietly in Node and is not awaited.
    setMetricsSession({ userId: 'u1', accessToken: 't', held: false });
    expect(trackMetric('page_view', 1, { path: '/dashboard' })).toBe(true);
    for (const name of ['', 'Page View', 'x'.repeat(101), "drop'table"]) {
      expect(trackMetric(name)).toBe(false);
    }
    expect(trackMetric('latency_ms', Number.NaN)).toBe(false);
    expect(trackMetric('latency_ms', Number.POSITIVE_INFINITY)).toBe(false);
    expect(metricsQueue.size).toBe(1);
  });
});
