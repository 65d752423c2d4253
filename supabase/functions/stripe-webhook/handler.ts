import { createClients } from '../_shared/clients.ts';
import { HttpError, json, withErrors } from '../_shared/http.ts';
import { stripeClient, webCrypto, webhooks, webhookSecret } from '../_shared/stripe.ts';
import { applyEvent, type BillingEvent } from './events.ts';

/**
 * stripe-webhook (verify_jwt = false: Stripe sends no JWT): the only writer of subscriptions and
 * user_agent_subscriptions. Trusts nothing but a valid Stripe-Signature over the exact body; a replayed
 * event id or an event older than the stored state changes nothing (billing_apply_event).
 */
export default withErrors(async function handler(req: Request): Promise<Response> {
  if (req.method !== 'POST') {
    throw new HttpError(405, 'Use POST');
  }
  const signature = req.headers.get('stripe-signature');
  // Unsigned requests are refused before anything is read from or written to the database.
  if (!signature) {
    throw new HttpError(400, 'Missing Stripe-Signature header');
  }
  const payload = await req.text();
  const secret = await webhookSecret();
  let event: BillingEvent;
  try {
    // Signature and timestamp (5-minute tolerance) over the raw body, with Web Crypto (Deno and Node).
    event = await webhooks.constructEventAsync(payload, signature, secret, undefined, webCrypto);
  } catch {
    throw new HttpError(400, 'Webhook signature verification failed');
  }
  const { admin } = createClients(req);
  const outcome = await applyEvent(event, { admin, stripe: stripeClient() });
  return json({ received: true, outcome });
});
