// A small static web site for the "static target vs nikto" comparison: Debian's nginx serving a few
// files when it is installed, else a Node static server with the same files. Only inside the bench's
// private network namespace.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface StaticSite {
  url: string;
  server: 'nginx' | 'node';
  close: () => Promise<void>;
}

const files: Record<string, string> = {
  'index.html':
    '<!doctype html><html><head><title>Acme</title><link rel="stylesheet" href="/css/site.css"></head><body><h1>Acme</h1><a href="/about.html">About</a> <a href="/contact.html">Contact</a><script src="/js/site.js"></script></body></html>',
  'about.html':
    '<!doctype html><html><head><title>About</title></head><body><h1>About us</h1><a href="/">Home</a></body></html>',
  'contact.html':
    '<!doctype html><html><head><title>Contact</title></head><body><p>hello@acme.example</p><a href="/">Home</a></body></html>',
  'css/site.css': 'body { font-family: sans-serif; }',
  'js/site.js': 'document.title += " ✓";',
};

function writeSite(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'vigil-static-'));
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, 'www', name)), { recursive: true });
    writeFileSync(path.join(root, 'www', name), body);
  }
  // nginx's workers run as nobody: they must be able to read the site.
  for (const dir of [root, path.join(root, 'www'), path.join(root, 'www/css'), path.join(root, 'www/js')]) {
    chmodSync(dir, 0o755);
  }
  return root;
}

async function waitForPort(port: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(true));
      s.on('error', () => resolve(false));
      s.on('connect', () => s.destroy());
    });
    if (ok) {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

async function startNginx(root: string, port: number): Promise<StaticSite | null> {
  const conf = path.join(root, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off; worker_processes 1; pid ${root}/nginx.pid; error_log stderr error;
events { worker_connections 1024; }
http { access_log off; default_type text/html;
  client_body_temp_path ${root}/tmp; proxy_temp_path ${root}/tmp; fastcgi_temp_path ${root}/tmp; uwsgi_temp_path ${root}/tmp; scgi_temp_path ${root}/tmp;
  types { text/html html; text/css css; application/javascript js; }
  server { listen 127.0.0.1:${port}; root ${root}/www; } }
`,
  );
  const child = spawn('nginx', ['-c', conf, '-p', root], { stdio: ['ignore', 'ignore', 'pipe'] });
  // Guard: nginx logs every 404 at level error; an unread pipe fills after a few hundred and nginx stalls.
  child.stderr?.resume();
  const failed = new Promise<boolean>((resolve) =>
    child.once('error', () => resolve(false)).once('exit', () => resolve(false)),
  );
  const up = await Promise.race([waitForPort(port, 3000), failed]);
  if (!up) {
    child.kill('SIGKILL');
    return null;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    server: 'nginx',
    close: () =>
      new Promise<void>((resolve) =>
        child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGQUIT')),
      ),
  };
}

function startNode(port: number): Promise<StaticSite> {
  const server = http.createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/+/, '') || 'index.html';
    const body = files[name];
    res.statusCode = body === undefined ? 404 : 200;
    res.setHeader(
      'content-type',
      name.endsWith('.css') ? 'text/css' : name.endsWith('.js') ? 'application/javascript' : 'text/html',
    );
    res.end(body ?? '<html><body>404 Not Found</body></html>');
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        server: 'node',
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

export async function startStaticSite(port: number): Promise<StaticSite> {
  const root = writeSite();
  const site = (await startNginx(root, port)) ?? (await startNode(port));
  return {
    ...site,
    close: async () => {
      await site.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
