import { afterEach, describe, expect, it } from 'vitest';

import { MetricsHeld, sendMetrics, setMetricsSession } from './send-metrics.ts';

const metric = (userId: string) => ({
  user_id: userId,
  metric_name: 'page_view',
  value: 1,
  metadata: { path: '/auth/mfa' },
  timestamp: new Date(0).toISOString(),
});

describe('sendMetrics', () => {
  afterEach(() => setMetricsSession(null));

  it('holds the batch of a session that has not passed its second factor, sending nothing', async () => {
    // No client exists in this test: reaching the network would fail with a config error instead.
    setMetricsSession({ userId: 'u1', accessToken: 't', held: true });
    await expect(sendMetrics([metric('u1')], { unloading: false })).rejects.toBeInstanceOf(MetricsHeld);
  });

  it("drops another user's metrics before anything else", async () => {
    setMetricsSession({ userId: 'u1', accessToken: 't', held: true });
    await expect(sendMetrics([metric('u2')], { unloading: false })).resolves.toBeUndefined();
  });
});
