/**
 * What `/` answers before the renderer's web build exists: how to build it, not a bare 404. On a first
 * `npm start` the build runs beside the stack, so the page looks again every few seconds.
 */
export const NOT_BUILT_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Vigil: web app not built</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2937}
code{background:#f3f4f6;padding:.1rem .3rem;border-radius:.25rem}</style></head>
<body>
<h1>The Vigil web app is not built yet</h1>
<p>The API is running, but there is no web build in <code>dist/web</code> to serve yet.</p>
<p>On a first <code>npm start</code> it is being built now (a minute at most): this page reloads itself
until it is there. Otherwise build it with <code>npm run build:web</code>.</p>
</body>
</html>
`;
