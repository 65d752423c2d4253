import { z } from 'zod';
import { parseBody } from '../_shared/body.ts';
import { needsSignIn, requireUser } from '../_shared/clients.ts';
import { HttpError, json, withErrors } from '../_shared/http.ts';
import { redirectOrigin } from '../_shared/origins.ts';
import { stripeClient } from '../_shared/stripe.ts';
import { createLocalSession } from './local-session.ts';
import { buildOrder } from './order.ts';
import { createStripeSession } from './stripe-session.ts';

export const NOT_LOGGED_IN = 'You must be logged in to activate security agents';
export const NO_AGENTS = 'No agents selected: Please select at least one agent to proceed';

const CheckoutRequest = z.object({
  roleIds: z
    .array(z.uuid({ message: 'Each agent id must be a UUID' }))
    .min(1, { message: NO_AGENTS })
    .max(20)
    .refine((ids) => new Set(ids.map((i) => i.toLowerCase())).size === ids.length, {
      message: 'Each agent may be selected only once',
    }),
  userId: z.uuid(),
});

/**
 * create-checkout-session (docs/product.md §5 and §7): body {roleIds, userId} → {url}. The signed-in buyer
 * only, for themselves; prices and the bundle discount come from agent_roles on the server.
 * With STRIPE_SECRET_KEY a hosted Stripe Checkout; without it the embedded stack's /_checkout page.
 */
export default withErrors(async function handler(req: Request): Promise<Response> {
  if (req.method !== 'POST') {
    throw new HttpError(405, 'Use POST');
  }
  const { user, clients } = await requireUser(req).catch((e: unknown) => {
    // Visitors and expired sessions get the product's message; other faults stay 500s.
    throw needsSignIn(e) ? new HttpError(401, NOT_LOGGED_IN) : e;
  });
  const body = await parseBody(req, CheckoutRequest).catch((e: unknown) => {
    const empty = e instanceof HttpError && JSON.stringify(e.details ?? '').includes(NO_AGENTS);
    throw empty ? new HttpError(400, NO_AGENTS) : e;
  });
  // Nobody starts a checkout in another user's name.
  if (body.userId !== user.id) {
    throw new HttpError(403, 'userId does not match the signed-in user');
  }
  const roleIds = body.roleIds.map((id) => id.toLowerCase());
  const order = await buildOrder(clients.admin, user.id, roleIds);
  const origin = redirectOrigin(req);
  const urls = {
    success_url: `${origin}/dashboard?session_id={CHECKOUT_SESSION_ID}&success=true`,
    cancel_url: `${origin}/dashboard/select-roles`,
  };
  const stripe = stripeClient();
  const url = stripe
    ? await createStripeSession(stripe, clients.admin, user, order, urls)
    : await createLocalSession(clients.admin, user.id, order, urls);
  return json({ url });
});
