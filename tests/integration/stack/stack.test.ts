import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { startStack } from '../../../server/stack.ts';
import http from 'node:http';
import net from 'node:net';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

const statusWithHost = (url: string, host: string) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(url, { headers: { host } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

describe('embedded stack', () => {
  it('answers health with its database kind', async () => {
    const res = await fetch(`${stack.url}/health`);
    expect(await res.json()).toEqual({ status: 'ok', db: 'pglite' });
  });

  it('serves its status (with the keys) to local clients only', async () => {
    const res = await fetch(`${stack.url}/_stack/status`);
    const status = (await res.json()) as Record<string, string>;
    expect(status.api_url).toBe(stack.url);
    expect(status.anon_key).toMatch(/^eyJ/);
    const foreign = await fetch(`${stack.url}/_stack/status`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    // fetch cannot forge Host; a DNS-rebinding page's request carries the attacker's host name.
    expect(await statusWithHost(`${stack.url}/_mail/api/messages`, 'evil.example')).toBe(403);
    expect(
      await statusWithHost(`${stack.url}/_mail/api/messages`, `localhost:${new URL(stack.url).port}`),
    ).toBe(200);
  });

  it('applied the platform bootstrap: API roles, auth helpers and the realtime publication', async () => {
    const { rows } = await stack.ctx.db.query<{ n: number }>(
      `select count(*)::int as n from pg_roles where rolname in ('anon','authenticated','service_role')`,
    );
    expect(rows[0]?.n).toBe(3);
    const pub = await stack.ctx.db.query(`select 1 from pg_publication where pubname = 'supabase_realtime'`);
    expect(pub.rows).toHaveLength(1);
  });

  it('keeps sent mail in the outbox with its links', async () => {
    await stack.ctx.mailer.send({
      to: 'A@Example.com',
      subject: 'Hi',
      text: 'go http://x/y',
      html: '<a href="http://x/y">go</a>',
    });
    const res = await fetch(`${stack.url}/_mail/api/messages?to=a@example.com`);
    const mails = (await res.json()) as { subject: string; links: string[] }[];
    expect(mails[0]).toMatchObject({ subject: 'Hi', links: ['http://x/y'] });
    const bad = await fetch(`${stack.url}/_mail/api/messages?limit=nope`);
    expect(bad.status).toBe(400);
  });

  it('npm run stack:status -- --json prints the contract JSON of the stack on VIGIL_PORT', async () => {
    const port = new URL(stack.url).port;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/cli/status.ts', '--json'], {
      env: { ...process.env, VIGIL_PORT: port },
    });
    const status = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(status).sort()).toEqual(['anon_key', 'api_url', 'db', 'mail_url', 'service_role_key']);
    expect(status).toMatchObject({ api_url: stack.url, mail_url: `${stack.url}/_mail`, db: 'pglite:memory' });
  });

  it('stack:status fails clearly when no stack runs on the port', async () => {
    const failed = await run(process.execPath, ['--import', 'tsx', 'server/cli/status.ts', '--json'], {
      env: { ...process.env, VIGIL_PORT: '1' },
    }).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain('No Vigil stack is running');
  });

  it('fails to start with a clear error when its database is unreachable, and frees its port', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(p));
      });
    });
    await expect(
      startStack({ port, dataDir: 'memory', databaseUrl: 'postgres://nobody@127.0.0.1:1/none' }),
    ).rejects.toThrow();
    // The port is free again: nothing is left listening after the failed start.
    await new Promise<void>((resolve, reject) => {
      const again = net
        .createServer()
        .once('error', reject)
        .listen(port, '127.0.0.1', () => again.close(() => resolve()));
    });
  });
});
