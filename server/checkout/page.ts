import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { formatMonthlyPrice, formatPrice } from '../../shared/pricing.ts';
import type { LocalCheckout } from './sessions.ts';

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const STYLE = `
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; background: #0b1120; color: #e2e8f0; }
  main { max-width: 560px; margin: 40px auto; padding: 0 16px; }
  .banner { background: #854d0e; color: #fef9c3; padding: 10px 14px; border-radius: 8px; font-weight: 600; }
  .card { background: #111827; border: 1px solid #1f2937; border-radius: 12px; padding: 20px; margin-top: 16px; }
  table { width: 100%; border-collapse: collapse; } td { padding: 6px 0; } td.amount { text-align: right; }
  tr.total td { border-top: 1px solid #374151; font-weight: 700; padding-top: 10px; }
  label { display: block; margin-top: 10px; font-size: 13px; color: #94a3b8; }
  input { width: 100%; box-sizing: border-box; padding: 8px; border-radius: 6px; border: 1px solid #374151; background: #0b1120; color: inherit; }
  button { margin-top: 16px; width: 100%; padding: 12px; border: 0; border-radius: 8px; background: #2563eb; color: white; font-size: 16px; font-weight: 600; cursor: pointer; }
  a { color: #93c5fd; } .muted { color: #94a3b8; font-size: 13px; } .error { color: #fca5a5; }`;

function layout(title: string, body: Html): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Vigil test checkout</title>
        <style>
          ${STYLE}
        </style>
      </head>
      <body>
        <main>
          <p class="banner">Local test checkout: no real card data is processed and nothing is charged.</p>
          ${body}
        </main>
      </body>
    </html>`;
}

/** What the customer agrees to: the 7-day trial (first subscription), or the first month due today. */
function terms(session: LocalCheckout): { title: string; due: number; text: string; button: string } {
  if (session.trial) {
    const firstCharge = new Date(Date.now() + 7 * 86_400_000).toLocaleDateString('en-US', {
      dateStyle: 'long',
    });
    return {
      title: 'Start your 7-day free trial',
      due: 0,
      text: `7-day free trial, then ${formatMonthlyPrice(session.total)} from ${firstCharge}. Cancel anytime.`,
      button: 'Start free trial',
    };
  }
  return {
    title: 'Subscribe to your agents',
    due: session.total,
    text: `No free trial: you already had one. ${formatPrice(session.total)} is due today, then ${formatMonthlyPrice(session.total)}. Cancel anytime.`,
    button: `Subscribe and pay ${formatPrice(session.total)}`,
  };
}

/** The order, as the hosted checkout shows it: roles, monthly prices, discount, total, trial terms. */
export function checkoutPage(session: LocalCheckout, error?: string): Html {
  const rate = session.subtotal > 0 ? Math.round((session.discount / session.subtotal) * 100) : 0;
  const offer = terms(session);
  return layout(
    offer.title,
    html`<h1>${offer.title}</h1>
      <div class="card">
        <table>
          ${session.roles.map(
            (r) =>
              html`<tr>
                <td>${r.name}</td>
                <td class="amount">${formatMonthlyPrice(r.price_monthly)}</td>
              </tr>`,
          )}
          ${
            session.discount > 0
              ? html`<tr>
                  <td>Bundle discount (${rate}%)</td>
                  <td class="amount">−${formatPrice(session.discount)}</td>
                </tr>`
              : ''
          }
          <tr class="total">
            <td>${session.trial ? 'Total after trial' : 'Total'}</td>
            <td class="amount">${formatMonthlyPrice(session.total)}</td>
          </tr>
          <tr>
            <td>Due today</td>
            <td class="amount">${formatPrice(offer.due)}</td>
          </tr>
        </table>
        <p class="muted">${offer.text}</p>
      </div>
      <form class="card" method="post" action="/_checkout/${session.id}/complete">
        <input type="hidden" name="token" value="${session.csrf_token}" />
        <strong>Test card</strong>
        <p class="muted">
          Use 4242 4242 4242 4242 or another Stripe test card (succeeds), or 4000 0000 0000 0002 (declined).
          Only test cards are accepted. Each card gets one free trial.
        </p>
        ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
        <label for="card">Card number</label>
        <input
          id="card"
          name="card"
          inputmode="numeric"
          autocomplete="off"
          value="4242 4242 4242 4242"
          required
        />
        <label for="expiry">Expiry</label
        ><input id="expiry" name="expiry" autocomplete="off" value="12 / 34" /> <label for="cvc">CVC</label
        ><input id="cvc" name="cvc" autocomplete="off" value="123" />
        <button type="submit">${offer.button}</button>
      </form>
      <p><a href="${session.cancel_url}">Cancel and go back</a></p>`,
  );
}

/** Unknown, expired or already completed sessions: what happened and where to go. */
export function notice(title: string, message: string, link?: { href: string; text: string }): Html {
  return layout(
    title,
    html`<div class="card">
      <h1>${title}</h1>
      <p>${message}</p>
      ${link ? html`<p><a href="${link.href}">${link.text}</a></p>` : ''}
    </div>`,
  );
}
