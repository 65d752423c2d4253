import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import { checkoutPage, notice } from './page.ts';
import { claimCheckout, finishCheckout, loadCheckout, successUrl } from './sessions.ts';
import { isTimingSafeEqual, testCardFingerprint, testCardOutcome } from './test-card.ts';

const Completion = z.object({
  token: z.string().min(1).max(200),
  card: z.string().max(40).default(''),
});

/**
 * /_checkout/<session>: the local stand-in for Stripe's hosted checkout (docs/architecture.md §5), only while no
 * STRIPE_SECRET_KEY is configured. GET shows the order; POST …/complete (with the form's token)
 * completes it through the stripe-webhook function and redirects to the success URL.
 */
export function checkoutRoutes(ctx: StackContext): Hono {
  const app = new Hono();
  const origin = new URL(ctx.config.publicUrl).origin;
  app.use('*', async (c, next) => {
    // With a real provider configured the stand-in does not exist.
    if (ctx.config.stripeSecretKey) {
      return c.html(notice('Not available', 'Checkout is handled by the payment provider.'), 404);
    }
    await next();
    c.header('X-Frame-Options', 'DENY');
    c.header('Cache-Control', 'no-store');
    // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on the form POST below.
    c.header('Referrer-Policy', 'same-origin');
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
    );
  });

  app.get('/:id', async (c) => {
    const session = await loadCheckout(ctx.db, c.req.param('id'));
    return session
      ? pageFor(c, session)
      : c.html(notice('Checkout not found', 'This checkout link is unknown.'), 404);
  });

  app.post('/:id/complete', async (c) => {
    // A form posted from another site is refused (the token is the main guard; this is defence in depth).
    const from = c.req.header('origin');
    if (from && from !== origin && from !== new URL(c.req.url).origin) {
      return c.html(notice('Request refused', 'This form can only be sent from the checkout page.'), 403);
    }
    const session = await loadCheckout(ctx.db, c.req.param('id'));
    if (!session) {
      return c.html(notice('Checkout not found', 'This checkout link is unknown.'), 404);
    }
    const form = Completion.safeParse(await c.req.parseBody());
    if (!form.success || !isTimingSafeEqual(form.data.token, session.csrf_token)) {
      return c.html(
        notice(
          'Request refused',
          'The form token is missing or wrong. Reload the checkout page and try again.',
        ),
        403,
      );
    }
    if (session.status !== 'open' || session.expired) {
      return pageFor(c, session);
    }
    const outcome = testCardOutcome(form.data.card);
    if (outcome !== 'succeeds') {
      const message =
        outcome === 'declined'
          ? 'Your card was declined (test card 4000 0000 0000 0002).'
          : 'Only test cards are accepted on the local test checkout.';
      return c.html(checkoutPage(session, message), 402);
    }
    if (!(await claimCheckout(ctx.db, session.id))) {
      return pageFor(c, { ...session, status: 'completing' });
    }
    const card = {
      fingerprint: testCardFingerprint(form.data.card, ctx.keys.serviceRoleKey),
      last4: form.data.card.replace(/[\s-]/g, '').slice(-4),
    };
    // Completing signs a webhook event with Stripe's library, which loads with the first checkout.
    const ok = await import('./complete.ts')
      .then(({ completeLocalCheckout }) => completeLocalCheckout(ctx, session, card))
      .catch((e: unknown) => {
        console.error(`local checkout ${session.id} failed:`, e);
        return false;
      });
    await finishCheckout(ctx.db, session.id, ok);
    if (!ok) {
      return c.html(checkoutPage(session, 'The subscription could not be started. Please try again.'), 502);
    }
    return c.redirect(successUrl(session), 303);
  });
  return app;
}

/** The page for a session's state: the order while open, else what happened to it. */
function pageFor(c: Context, session: NonNullable<Awaited<ReturnType<typeof loadCheckout>>>) {
  if (session.status === 'complete') {
    return c.html(
      notice(
        'Checkout already completed',
        session.trial
          ? 'Your free trial has started; your agents are active.'
          : 'Your subscription has started; your agents are active.',
        {
          href: successUrl(session),
          text: 'Go to your dashboard',
        },
      ),
      409,
    );
  }
  if (session.status === 'completing') {
    return c.html(
      notice('Checkout in progress', 'This checkout is being completed. Reload in a moment.'),
      409,
    );
  }
  if (session.expired) {
    return c.html(
      notice(
        'Checkout expired',
        'This checkout link has expired. Select your agents again to start a new one.',
        { href: session.cancel_url, text: 'Back to agent selection' },
      ),
      410,
    );
  }
  return c.html(checkoutPage(session));
}
