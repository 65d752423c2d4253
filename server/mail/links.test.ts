import { describe, expect, it } from 'vitest';
import { extractLinks } from './links.ts';

describe('extractLinks', () => {
  it('takes decoded hrefs and bare links once each, ignoring other schemes', () => {
    const html = '<a href="http://x/verify?token=a&amp;type=signup">Confirm</a> <a href="mailto:a@b">m</a>';
    const text = 'Confirm: http://x/verify?token=a&type=signup\nOr open vigil://auth/callback?code=1.';
    expect(extractLinks(html, text)).toEqual([
      'http://x/verify?token=a&type=signup',
      'vigil://auth/callback?code=1.',
    ]);
  });
  it('returns nothing for a mail without links', () => {
    expect(extractLinks('<p>hi</p>', 'hi')).toEqual([]);
  });
});
