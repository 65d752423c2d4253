import Stripe from 'stripe';
import { getEnv } from './env.ts';

/**
 * The card-payment provider (Stripe). With STRIPE_SECRET_KEY set, checkout and the billing portal use
 * the real API; without it the embedded stack's local checkout stands in (docs/architecture.md §5 /_checkout).
 * STRIPE_API_BASE (e.g. http://127.0.0.1:12111) points the SDK at another API host, such as stripe-mock.
 */
export function stripeClient(): Stripe | null {
  const key = getEnv('STRIPE_SECRET_KEY');
  if (!key) {
    return null;
  }
  const base = getEnv('STRIPE_API_BASE');
  const url = base ? new URL(base) : null;
  return new Stripe(key, {
    // fetch and Web Crypto run alike on Deno (edge runtime) and Node (embedded stack).
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'https:' ? 443 : 80),
          protocol: url.protocol === 'http:' ? ('http' as const) : ('https' as const),
        }
      : {}),
  });
}

/** The Web Crypto signer/verifier for webhook signatures (Deno has no node:crypto HMAC by default). */
export const webCrypto = Stripe.createSubtleCryptoProvider();

/** Stripe's static webhook helpers: verifying needs no API key. */
export const webhooks = Stripe.webhooks;

/**
 * The secret webhook signatures are checked with. In production STRIPE_WEBHOOK_SECRET (the endpoint's
 * signing secret). In local mode (no STRIPE_SECRET_KEY) a per-stack secret derived from the service-role
 * key, which the local checkout signs with; whoever knows that key could write the tables anyway.
 * A provider key without a webhook secret is a deployment fault: no event is trusted then.
 */
export async function webhookSecret(
  serviceRoleKey: string | undefined = getEnv('SUPABASE_SERVICE_ROLE_KEY'),
): Promise<string> {
  const configured = getEnv('STRIPE_WEBHOOK_SECRET');
  if (configured) {
    return configured;
  }
  if (getEnv('STRIPE_SECRET_KEY')) {
    throw new Error('STRIPE_WEBHOOK_SECRET is not set: webhook events cannot be verified');
  }
  if (!serviceRoleKey) {
    throw new Error('Missing environment variable SUPABASE_SERVICE_ROLE_KEY');
  }
  return localWebhookSecret(serviceRoleKey);
}

export async function localWebhookSecret(serviceRoleKey: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`vigil-local-stripe-webhook:${serviceRoleKey}`),
  );
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return `whsec_local_${hex}`;
}

export type { Stripe };
