import { describe, expect, it } from 'vitest';

import { webhookUrlSchema } from './webhook-url.ts';

describe('webhookUrlSchema', () => {
  it('accepts https URLs with or without a path, trimmed', () => {
    expect(webhookUrlSchema.parse(' https://hooks.example.com/vigil?x=1 ')).toBe(
      'https://hooks.example.com/vigil?x=1',
    );
    expect(webhookUrlSchema.safeParse('https://hooks.example.com').success).toBe(true);
  });

  it('refuses http, other schemes, spaces, control characters and a missing host', () => {
    for (const bad of [
      'http://hooks.example.com/',
      'javascript:alert(1)',
      'https://',
      'https://a b.com/',
      'https://a.com/x\ny',
      '',
    ]) {
      expect(webhookUrlSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('refuses more than 2048 characters', () => {
    expect(webhookUrlSchema.safeParse(`https://a.com/${'x'.repeat(2040)}`).success).toBe(false);
  });
});
