// The app's one metrics queue and the call features use to record a metric for the signed-in user.
import { type MetricMetadata, MetricsQueue } from '../lib/metrics-queue.ts';
import { currentMetricsUser, sendMetrics } from './send-metrics.ts';

export const metricsQueue = new MetricsQueue({ send: sendMetrics });

const NAME = /^[a-z][a-z0-9_.]{0,99}$/;

/** Queues one metric; visitors write none (docs/product.md §6) and malformed ones are refused here, not by the database. */
export function trackMetric(name: string, value = 1, metadata: MetricMetadata = {}): boolean {
  const userId = currentMetricsUser();
  if (!userId || !NAME.test(name) || !Number.isFinite(value)) {
    return false;
  }
  metricsQueue.add({
    user_id: userId,
    metric_name: name,
    value,
    metadata,
    timestamp: new Date().toISOString(),
  });
  return true;
}
