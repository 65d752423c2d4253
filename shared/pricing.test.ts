import { describe, expect, it } from 'vitest';

import { DEFAULT_AGENT_ROLES } from './constants.ts';
import { bundleDiscountRate, bundleQuote, formatMonthlyPrice, formatPrice } from './pricing.ts';

describe('formatPrice', () => {
  it('shows cents as whole US dollars', () => {
    expect(formatPrice(29900)).toBe('$299');
    expect(formatPrice(44900)).toBe('$449');
    expect(formatPrice(0)).toBe('$0');
    expect(formatPrice(123456700)).toBe('$1,234,567');
  });
  it('rounds odd cents instead of printing decimals', () => {
    expect(formatPrice(29950)).toBe('$300');
    expect(formatPrice(29949)).toBe('$299');
  });
  it('adds the period', () => {
    expect(formatMonthlyPrice(39900)).toBe('$399/month');
  });
});

describe('bundle discount', () => {
  it('follows the count table', () => {
    expect([0, 1, 2, 3, 4, 5, 7].map(bundleDiscountRate)).toEqual([0, 0, 0.1, 0.15, 0.2, 0.2, 0.2]);
  });
  it('quotes a total after the discount', () => {
    expect(bundleQuote([29900])).toEqual({ subtotal: 29900, discountRate: 0, discount: 0, total: 29900 });
    expect(bundleQuote([29900, 39900])).toEqual({
      subtotal: 69800,
      discountRate: 0.1,
      discount: 6980,
      total: 62820,
    });
    expect(bundleQuote([29900, 39900, 34900]).total).toBe(88995);
    const all = bundleQuote(DEFAULT_AGENT_ROLES.map((role) => role.price_monthly));
    expect(all.subtotal).toBe(259300);
    expect(all.total).toBe(207440);
  });
  it('quotes nothing for an empty selection', () => {
    expect(bundleQuote([])).toEqual({ subtotal: 0, discountRate: 0, discount: 0, total: 0 });
  });
});

describe('default roles', () => {
  it('are the seven roles with the prices of docs/product.md §9', () => {
    expect(DEFAULT_AGENT_ROLES.map((role) => [role.role_type, role.price_monthly])).toEqual([
      ['cybersecurity_analyst', 29900],
      ['penetration_tester', 39900],
      ['incident_response', 34900],
      ['forensics_investigator', 44900],
      ['threat_intelligence', 29900],
      ['application_security', 39900],
      ['cloud_security', 39900],
    ]);
  });
});
