import { describe, expect, it } from 'vitest';

import { deferEntry, injectShells, shellHead } from './prerender.ts';

const VITE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <script src="/theme-init.js"></script>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-def.js">
    <link rel="stylesheet" crossorigin href="/assets/index-ghi.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const shells = [
  { name: 'landing', paths: ['/', '/home'], visitorOnly: false },
  { name: 'auth', paths: ['/auth'], visitorOnly: true },
];

describe('prerender', () => {
  it('puts each shell before #root and its table and CSS before theme-init.js', () => {
    const head = shellHead(shells, 'vigil-shells');
    const html = injectShells(VITE_HTML, head, [
      { name: 'landing', html: '<main>Landing</main>' },
      { name: 'auth', html: '<main>Auth</main>' },
    ]);
    expect(html).toContain('<div data-shell="landing" inert><main>Landing</main></div>');
    expect(html.indexOf('data-shell="auth"')).toBeLessThan(html.indexOf('<div id="root"></div>'));
    expect(html.indexOf('name="vigil-shells"')).toBeLessThan(html.indexOf('/theme-init.js'));
    expect(html).toContain("html[data-shell='auth'] body > [data-shell='auth']");
    // The table is an attribute: quotes are escaped, no inline script is added (the CSP forbids them).
    expect(html).toContain('content="[{&quot;name&quot;:&quot;landing&quot;');
    expect(html.match(/<script/g)).toHaveLength(2);
  });

  it('refuses an index.html it does not understand, or one prerendered already', () => {
    expect(() => injectShells('<html></html>', '', [])).toThrow(/lacks/);
    const once = injectShells(VITE_HTML, '', [{ name: 'landing', html: '' }]);
    expect(() => injectShells(once, '', [{ name: 'landing', html: '' }])).toThrow(/prerendered already/);
  });

  it('moves the entry script and module preloads into the meta that theme-init.js reads', () => {
    const html = deferEntry(VITE_HTML, ['/assets/supabase-x.js', '/assets/index-abc.js']);
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('modulepreload');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-ghi.css">');
    const content = /name="vigil-entry" content="([^"]+)"/.exec(html)?.[1]?.replaceAll('&quot;', '"');
    expect(JSON.parse(content ?? 'null')).toEqual({
      entry: '/assets/index-abc.js',
      preload: ['/assets/react-def.js'],
      // Chunks the entry already loads are not listed twice.
      session: ['/assets/supabase-x.js'],
      routes: [],
    });
  });

  it("lists each path's route chunks, without those the entry or the session loads already", () => {
    const html = deferEntry(
      VITE_HTML,
      ['/assets/supabase-x.js', '/assets/zod-z.js'],
      [
        {
          paths: ['/'],
          files: ['/assets/landing-l.js', '/assets/react-def.js', '/assets/zod-z.js'],
          signedIn: false,
        },
        { paths: ['/dashboard'], files: ['/assets/home-h.js', '/assets/zod-z.js'], signedIn: true },
      ],
    );
    const content = /name="vigil-entry" content="([^"]+)"/.exec(html)?.[1]?.replaceAll('&quot;', '"');
    expect((JSON.parse(content ?? 'null') as { routes: unknown }).routes).toEqual([
      // A visitor's page loads no session chunks: it keeps the chunk it shares with them.
      { paths: ['/'], files: ['/assets/landing-l.js', '/assets/zod-z.js'], signedIn: false },
      { paths: ['/dashboard'], files: ['/assets/home-h.js'], signedIn: true },
    ]);
  });

  it('refuses an index.html without the module entry', () => {
    expect(() => deferEntry(VITE_HTML.replace(/<script type="module"[^\n]+/, ''))).toThrow(/entry/);
  });
});
