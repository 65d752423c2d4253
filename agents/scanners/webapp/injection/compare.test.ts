import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../../core/http-client.ts';
import { Baseline, distance, observe, reflectionPattern } from './compare.ts';

const response = (body: string, status = 200): HttpResponse => ({
  url: 'http://127.0.0.1/',
  status,
  headers: {},
  body,
  redirects: [],
});

describe('reflectionPattern', () => {
  it.each([
    ["alice' AND '1'='1", "alice' AND '1'='1"],
    ['alice&#039; AND &#039;1&#039;=&#039;1', 'PHP htmlspecialchars'],
    ['alice&#39; AND &#39;1&#39;=&#39;1', 'Jinja2 autoescape'],
    ['alice%27+AND+%271%27%3D%271', 'a form-encoded link'],
    ['alice\\u0027 AND \\u00271\\u0027=\\u00271', 'JSON \\u escapes'],
  ])('finds the value written back as %s (%s)', (written) => {
    expect(reflectionPattern("alice' AND '1'='1")!.test(`<p>No results for ${written}.</p>`)).toBe(true);
  });

  it('does not match other text', () => {
    expect(reflectionPattern("alice' AND '1'='1")!.test('<p>alice lives in Lyon</p>')).toBe(false);
  });
});

describe('observe and Baseline', () => {
  it('treats a page that echoes the value as the same page', () => {
    const sent = "bob' AND '4821'='4821";
    const a = observe(response('<p>No results for bob.</p>'), 'bob', 'bob');
    const b = observe(response(`<p>No results for ${sent.replace(/'/g, '&#039;')}.</p>`), sent, 'bob');
    expect(distance(a, b)).toBe(0);
  });

  it('requires a stable page to match exactly, and a changing page to differ far beyond its own noise', () => {
    const stable = new Baseline([1, 2, 3].map(() => observe(response('<p>Hammer: 12.50</p>'), '1', '1')));
    expect(stable.noise).toBe(0);
    expect(stable.same(observe(response('<p>Hammer: 12.50</p>'), '1', '1'))).toBe(true);
    expect(stable.differs(observe(response('<p>Not found</p>'), '1', '1'))).toBe(true);
    expect(stable.differs(observe(response('<p>Hammer: 12.50</p>', 500), '1', '1'))).toBe(true);

    const page = (n: number) =>
      `<ul>${Array.from({ length: 20 }, (_, i) => `<li>item ${i}</li>`).join('')}</ul><p>${n} visitors</p>`;
    const changing = new Baseline([17, 4242, 980].map((n) => observe(response(page(n)), 'x', 'x')));
    expect(changing.noise).toBeGreaterThan(0);
    expect(changing.same(observe(response(page(77)), 'x', 'x'))).toBe(true);
    expect(changing.differs(observe(response(page(55)), 'x', 'x'))).toBe(false);
    expect(changing.differs(observe(response('<p>Nothing here</p>'), 'x', 'x'))).toBe(true);
  });

  it('gives up on a page that changes too much by itself', () => {
    const random = () => Array.from({ length: 30 }, () => Math.random().toString(36).slice(2)).join(' ');
    expect(new Baseline([1, 2, 3].map(() => observe(response(random()), 'x', 'x'))).tooNoisy).toBe(true);
  });
});
