// Prices (docs/product.md §9): stored in cents, shown in USD per month without decimals; bundle discount by count.

// Created on first use: building an Intl formatter costs tens of milliseconds on a slow phone, which
// would otherwise be spent while the landing page hydrates, before any price is shown.
let usd: Intl.NumberFormat | undefined;

/** 29900 → "$299". */
export function formatPrice(cents: number): string {
  usd ??= new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  });
  return usd.format(Math.round(cents) / 100);
}

/** 29900 → "$299/month". */
export function formatMonthlyPrice(cents: number): string {
  return `${formatPrice(cents)}/month`;
}

/** Discount rate for a bundle of `count` agents: 1 → 0, 2 → 10 %, 3 → 15 %, 4 or more → 20 %. */
export function bundleDiscountRate(count: number): number {
  if (count >= 4) {
    return 0.2;
  }
  if (count === 3) {
    return 0.15;
  }
  if (count === 2) {
    return 0.1;
  }
  return 0;
}

export interface BundleQuote {
  subtotal: number;
  discountRate: number;
  discount: number;
  total: number;
}

/** The monthly quote in cents for the selected agents' prices (in cents). */
export function bundleQuote(pricesInCents: readonly number[]): BundleQuote {
  const subtotal = pricesInCents.reduce((sum, price) => sum + price, 0);
  const discountRate = bundleDiscountRate(pricesInCents.length);
  const discount = Math.round(subtotal * discountRate);
  return { subtotal, discountRate, discount, total: subtotal - discount };
}
