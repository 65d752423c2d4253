// No acknowledged write is lost when the stack's process is killed (kill -9) and started again on the same
// data dir: PGlite's engine writes through to the files on its own thread before it answers, and a REST write
// is acknowledged only after that answer. PGlite only (PostgreSQL keeps its own durability).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inStage, requires } from '../../helpers/requirements.ts';

interface Child {
  process: ChildProcess;
  url: string;
  serviceKey: string;
}

const CHILD = path.resolve(import.meta.dirname, '../../helpers/stack-child.ts');

async function startChild(dataDir: string): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: '' },
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the stack exited (code ${code}) before serving`)));
  });
  const { url, serviceKey } = JSON.parse(first) as { url: string; serviceKey: string };
  return { process: child, url, serviceKey };
}

function kill(child: Child, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    child.process.once('exit', () => resolve());
    child.process.kill(signal);
  });
}

const headers = (c: Child) => ({
  apikey: c.serviceKey,
  authorization: `Bearer ${c.serviceKey}`,
  'content-type': 'application/json',
});

describe(
  'durability on PGlite',
  requires(process.env.VIGIL_TEST_DATABASE_URL ? inStage('vitest', 'the PGlite data directory only') : null),
  () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'vigil-durability-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('keeps every acknowledged write across kill -9 while writes are in flight', async () => {
      const first = await startChild(dir);
      const user = await fetch(`${first.url}/auth/v1/admin/users`, {
        method: 'POST',
        headers: headers(first),
        body: JSON.stringify({ email: `durable-${Date.now()}@example.com`, email_confirm: true }),
      });
      expect(user.status).toBe(200);
      const userId = ((await user.json()) as { id: string }).id;
      const acknowledged: number[] = [];
      let next = 0;
      let killed = false;
      // Four writers at once, until the process dies under them.
      const writer = async () => {
        while (!killed) {
          const value = next++;
          const res = await fetch(`${first.url}/rest/v1/monitoring_metrics`, {
            method: 'POST',
            headers: { ...headers(first), prefer: 'return=minimal' },
            body: JSON.stringify({ user_id: userId, metric_name: 'durability', value }),
          }).catch(() => null);
          if (res?.status === 201) {
            acknowledged.push(value);
          }
        }
      };
      const writers = Promise.all([writer(), writer(), writer(), writer()]);
      while (acknowledged.length < 100) {
        await new Promise((r) => setTimeout(r, 5));
      }
      await kill(first, 'SIGKILL');
      killed = true;
      await writers;

      const second = await startChild(dir);
      try {
        const res = await fetch(
          `${second.url}/rest/v1/monitoring_metrics?select=value&metric_name=eq.durability&user_id=eq.${userId}`,
          { headers: headers(second) },
        );
        expect(res.status).toBe(200);
        const stored = new Set(((await res.json()) as { value: number }[]).map((r) => Number(r.value)));
        expect(acknowledged.filter((v) => !stored.has(v))).toEqual([]);
        // Written after the restart too.
        const after = await fetch(`${second.url}/rest/v1/monitoring_metrics`, {
          method: 'POST',
          headers: { ...headers(second), prefer: 'return=minimal' },
          body: JSON.stringify({ user_id: userId, metric_name: 'durability', value: -1 }),
        });
        expect(after.status).toBe(201);
      } finally {
        await kill(second, 'SIGTERM');
      }
      // Two stack processes start (tsx, PGlite): tens of seconds on a loaded machine.
    }, 120_000);
  },
);
