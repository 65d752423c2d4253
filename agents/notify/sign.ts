// Webhook signatures: X-Vigil-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">, the
// scheme Stripe and Slack use, so a receiver can check origin and reject replays older than a few minutes.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signWebhook(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** What a receiver does: recompute, compare in constant time, and refuse stale timestamps. */
export function verifyWebhook(
  body: string,
  header: string,
  secret: string,
  toleranceSeconds = 300,
  now = Math.floor(Date.now() / 1000),
): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(now - t) > toleranceSeconds) {
    return false;
  }
  const expected = Buffer.from(signWebhook(body, secret, t).split('v1=')[1]!, 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
