// What starting and stopping the product costs a user, timed from the command as typed: `npm start` on an
// existing data directory and on a fresh clone (the Node build, the database template, the web app built
// beside the start), `npm run scan` to its first request, and SIGTERM to everything gone.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import { freePort, npmStart, repoRoot, stopProduct } from './lib/npm-start.ts';
import type { BenchRow } from './lib/report.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const range = (xs: number[]) =>
  xs.length ? `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))} over ${xs.length}` : 'no run';
const load = () => `load ${loadavg()[0]!.toFixed(1)}`;

/** A web app to serve, so that starts on an existing data dir measure the stack, not a web build. */
async function webDirFor(work: string): Promise<string> {
  const built = path.join(repoRoot, 'dist/web');
  if (existsSync(path.join(built, 'index.html'))) {
    return built;
  }
  const placeholder = path.join(work, 'web');
  await mkdir(placeholder, { recursive: true });
  await writeFile(path.join(placeholder, 'index.html'), '<!doctype html><title>Vigil</title>');
  return placeholder;
}

/** From `npm run scan` to the first request a local target receives (the HTML crawl only). */
async function scanToFirstRequest(): Promise<number> {
  let first: number | null = null;
  const server = http.createServer((_req, res) => {
    first ??= performance.now();
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1></body></html>');
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  try {
    const started = performance.now();
    const args = [
      'run',
      '--silent',
      'scan',
      '--',
      '--type',
      'webapp',
      '--target',
      `http://127.0.0.1:${port}`,
    ];
    const scan = spawn('npm', [...args, '--json', '--max-time', '60'], {
      cwd: repoRoot,
      env: { ...process.env, VIGIL_SCAN_BROWSER: 'off' },
      stdio: 'ignore',
    });
    const code = await new Promise<number | null>((resolve) => scan.once('exit', resolve));
    if (code !== 0 || first === null) {
      throw new Error(`npm run scan exited with ${code}${first === null ? ' without a request' : ''}`);
    }
    return (first as number) - started;
  } finally {
    server.close();
  }
}

export async function benchProductStart(): Promise<BenchRow[]> {
  const work = await mkdtemp(path.join(tmpdir(), 'vigil-bench-product-'));
  try {
    const env = { VIGIL_DATA_DIR: path.join(work, 'data'), VIGIL_WEB_DIR: await webDirFor(work) };
    // The first start creates the data directory (and builds dist/node if it is stale): not measured.
    await stopProduct(await npmStart(env));
    const ready: number[] = [];
    const stops: number[] = [];
    const leftovers: number[] = [];
    for (let i = 0; i < 3; i++) {
      const product = await npmStart(env);
      ready.push(product.readyMs);
      const stopped = await stopProduct(product);
      if (stopped === null) {
        leftovers.push(i);
      } else {
        stops.push(stopped);
      }
    }
    const loadAtStarts = load();

    // A fresh clone: no dist/node, no database template, no web app, no data directory.
    await rm(path.join(repoRoot, 'dist/node/build-info.json'), { force: true });
    const fresh = await npmStart({
      VIGIL_DATA_DIR: path.join(work, 'fresh-data'),
      VIGIL_CACHE_DIR: path.join(work, 'fresh-cache'),
      VIGIL_WEB_DIR: path.join(work, 'fresh-web'),
    });
    let webMs = NaN;
    while (performance.now() - fresh.startedAt < 300_000) {
      const status = await fetch(`${fresh.url}/`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) {
        webMs = performance.now() - fresh.startedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await stopProduct(fresh);
    const loadAtFresh = load();

    const scans: number[] = [];
    for (let i = 0; i < 3; i++) {
      scans.push(await scanToFirstRequest());
    }
    const r = median(ready);
    const s = median(stops);
    const q = median(scans);
    return [
      {
        name: 'npm start → /health, existing data dir',
        value: r,
        unit: 'ms',
        target: '≤ 1500',
        pass: r <= 1500,
        note: `${range(ready)}, ${loadAtStarts}`,
      },
      {
        name: 'npm start → /health, fresh clone (build incl.)',
        value: fresh.readyMs,
        unit: 'ms',
        target: '≤ 10000',
        pass: fresh.readyMs <= 10_000,
        note: `Node build, database template and data dir; the web app was served at ${Math.round(webMs)} ms (built beside the start); ${loadAtFresh}`,
      },
      {
        name: 'npm run scan → first request at the target',
        value: q,
        unit: 'ms',
        target: '≤ 1000',
        pass: q <= 1000,
        note: `${range(scans)}, webapp, HTML crawl only, ${load()}`,
      },
      {
        name: 'SIGTERM to npm start → every process gone',
        value: s,
        unit: 'ms',
        target: '≤ 5000',
        pass: s <= 5000 && leftovers.length === 0,
        note: leftovers.length
          ? `processes left running after 15 s in ${leftovers.length} run(s)`
          : range(stops),
      },
    ];
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
