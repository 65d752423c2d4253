// Which parameters carry a URL or a path, by name and by value, as real applications name them.
import { describe, expect, it } from 'vitest';

import { carries, nameWords, urlParamsFirst } from './url-params.ts';

describe('parameters that carry a URL or a path', () => {
  it('reads names in any spelling', () => {
    expect(nameWords('returnUrl')).toEqual(['return', 'url']);
    expect(nameWords('redirect_uri')).toEqual(['redirect', 'uri']);
    expect(nameWords('user[successURL]')).toEqual(['user', 'success', 'url']);
    expect(nameWords('x'.repeat(10_000))).toHaveLength(1);
  });

  it('by name: where to go, and what to read', () => {
    for (const name of [
      'next',
      'returnTo',
      'redirect_uri',
      'successUrl',
      'RelayState-url',
      'continue',
      'link',
    ]) {
      expect([name, carries(name, 'x')]).toEqual([name, 'url']);
    }
    for (const name of ['file', 'page', 'doc', 'templateName', 'include', 'img_src']) {
      expect([name, carries(name, 'x')]).toEqual([name, 'path']);
    }
    for (const name of ['q', 'id', 'quantity', 'token', 'username', 'topic']) {
      expect([name, carries(name, 'abc')]).toEqual([name, null]);
    }
  });

  it('by value: absolute, protocol-relative, rooted and relative paths; not numbers or words', () => {
    expect(carries('a', 'https://partner.example/cb')).toBe('url');
    expect(carries('a', '//partner.example/')).toBe('url');
    expect(carries('a', '/account/orders')).toBe('path');
    expect(carries('a', '../shared/x')).toBe('path');
    expect(carries('a', 'docs/intro')).toBe('path');
    expect(carries('a', 'about.html')).toBe('path');
    for (const value of ['1.2', '42', 'hello', 'hello world/x', '', null]) {
      expect([value, carries('a', value)]).toEqual([value, null]);
    }
  });

  it('puts them first, keeping each group in its order', () => {
    const params = ['q', 'page', 'sort', 'next', 'id'];
    expect(urlParamsFirst(params, (p) => carries(p, null))).toEqual(['page', 'next', 'q', 'sort', 'id']);
  });
});
