import { describe, expect, it } from 'vitest';

import { pathsInScript } from './js-paths.ts';

const origin = new URL('http://127.0.0.1:8080/');
const paths = (text: string) => pathsInScript(text, origin).map((u) => `${u.pathname}${u.search}`);

describe('pathsInScript', () => {
  it('reads string and template literals, with the query names they carry', () => {
    const bundle = `const a="/api/v1/users",b='/api/v1/me';fetch(\`/api/stats?year=\${y}\`);
      location.assign("/api/goto?url="+encodeURIComponent(n));fetch("http://127.0.0.1:8080/rest/items")`;
    expect(paths(bundle)).toEqual([
      '/api/v1/users',
      '/api/v1/me',
      '/api/stats?year=',
      '/api/goto?url=',
      '/rest/items',
    ]);
  });

  it('is not thrown off by quotes in regular expressions or unpaired template literals', () => {
    const minified = 'var r=/["\'`]/g;x=`a${b}c`.split("/");fetch("/api/after-the-noise")';
    expect(paths(minified)).toEqual(['/api/after-the-noise']);
  });

  it('reads JSON with escaped slashes', () => {
    expect(paths('{"files":"\\/api\\/v2\\/files?name=report.txt"}')).toEqual([
      '/api/v2/files?name=report.txt',
    ]);
  });

  it('leaves out other origins, static files, bare slashes and paths that could change state', () => {
    const text = `"//cdn.example.com/x" "https://other.example/api" "/static/app.css" "/img/logo.svg" "/"
      "/api/logout" "/account/delete?id=" "text/html" "/ a sentence / with slashes "`;
    expect(paths(text)).toEqual([]);
  });
});
