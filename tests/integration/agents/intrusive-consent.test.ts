// Intrusive checks only with the owner's consent (supabase/migrations/20261126120000_intrusive_consent.sql):
// the setting is off for a new target, only its owner can turn it on (row-level security and the column
// grant), enqueue_scan carries it into the job, the worker runs the intrusive checks only while it holds,
// the scan's result says which categories ran, and a scan without them closes none of their findings.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../agents/queue/client.ts';
import { startAgent, type Agent } from '../../../agents/worker/agent.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { customer, target, waitFor } from '../../helpers/queue-support.ts';

let stack: RunningStack;
const agents: Agent[] = [];
const service = () => createServiceClient(stack.url, stack.status.service_role_key);

/**
 * A site whose root collection takes PUT and DELETE from anyone (a real misconfiguration, kept in
 * memory): what the intrusive WebDAV write check proves, and what no other check can see.
 */
async function writableSite() {
  const files = new Map<string, string>();
  const writes: string[] = [];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'PUT' && path.length > 1) {
        writes.push(path);
        files.set(path, Buffer.concat(chunks).toString('utf8'));
        res.statusCode = 201;
        res.end();
      } else if (req.method === 'DELETE' && files.delete(path)) {
        res.statusCode = 204;
        res.end();
      } else if ((req.method === 'GET' || req.method === 'HEAD') && files.has(path)) {
        res.setHeader('content-type', 'text/plain');
        res.end(files.get(path));
      } else if (req.method === 'GET' && path === '/') {
        res.setHeader('content-type', 'text/html');
        res.end('<!doctype html><html><head><title>Files</title></head><body><h1>Files</h1></body></html>');
      } else {
        res.statusCode = 404;
        res.end('not found');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    files,
    writes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  stack = await startTestStack();
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
});
afterAll(() => stack.close());

const consent = async (targetId: string) =>
  (
    await stack.ctx.db.query<{ allow_intrusive: boolean; intrusive_allowed_at: string | null }>(
      'select allow_intrusive, intrusive_allowed_at from public.scan_targets where id = $1',
      [targetId],
    )
  ).rows[0]!;

describe('consent to intrusive checks: who may give it', () => {
  it('is off for a new target; the owner turns it on and off, and the time is recorded by the database', async () => {
    const alice = await customer(stack);
    const t = await target(stack, alice.id, `https://consent-${crypto.randomUUID().slice(0, 8)}.example.com`);
    expect(await consent(t.id)).toEqual({ allow_intrusive: false, intrusive_allowed_at: null });

    const on = await alice.supabase
      .from('scan_targets')
      .update({ allow_intrusive: true })
      .eq('id', t.id)
      .select('allow_intrusive, intrusive_allowed_at')
      .single();
    expect(on.error).toBeNull();
    expect(on.data!.allow_intrusive).toBe(true);
    expect(Date.now() - new Date(on.data!.intrusive_allowed_at!).getTime()).toBeLessThan(60_000);

    // A later change of another setting keeps the time consent was given.
    await alice.supabase.from('scan_targets').update({ rate_limit: 20 }).eq('id', t.id);
    expect(new Date((await consent(t.id)).intrusive_allowed_at!).getTime()).toBe(
      new Date(on.data!.intrusive_allowed_at!).getTime(),
    );

    const off = await alice.supabase.from('scan_targets').update({ allow_intrusive: false }).eq('id', t.id);
    expect(off.error).toBeNull();
    expect(await consent(t.id)).toEqual({ allow_intrusive: false, intrusive_allowed_at: null });
  });

  it('cannot be turned on by another customer, a visitor, or by writing the time directly', async () => {
    const alice = await customer(stack);
    const mallory = await customer(stack);
    const t = await target(stack, alice.id, `https://consent-${crypto.randomUUID().slice(0, 8)}.example.com`);

    // Row-level security: another customer's update matches no row.
    const theirs = await mallory.supabase
      .from('scan_targets')
      .update({ allow_intrusive: true })
      .eq('id', t.id)
      .select('id');
    expect(theirs.error).toBeNull();
    expect(theirs.data).toEqual([]);
    expect((await consent(t.id)).allow_intrusive).toBe(false);

    // A visitor has no grant at all.
    const visitor = await client(stack, 'anon')
      .from('scan_targets')
      .update({ allow_intrusive: true })
      .eq('id', t.id);
    expect(visitor.error?.code).toBe('42501');

    // The time is the database's to write; a target cannot be created with consent already given.
    const stamp = await alice.supabase
      .from('scan_targets')
      .update({ intrusive_allowed_at: new Date().toISOString() })
      .eq('id', t.id);
    expect(stamp.error?.code).toBe('42501');
    const created = await alice.supabase.from('scan_targets').insert({
      user_id: alice.id,
      kind: 'url',
      value: `https://consent-${crypto.randomUUID().slice(0, 8)}.example.com`,
      allow_intrusive: true,
    });
    expect(created.error?.code).toBe('42501');
    expect((await consent(t.id)).allow_intrusive).toBe(false);
  });

  it('is carried by enqueue_scan into the scan job', async () => {
    const alice = await customer(stack);
    const t = await target(stack, alice.id, `https://consent-${crypto.randomUUID().slice(0, 8)}.example.com`);
    const payloadOf = async () => {
      const { data: jobId, error } = await service().rpc('enqueue_scan', {
        p_user: alice.id,
        p_tool: 'webapp',
        p_target_id: t.id,
        p_scanner: 'webapp',
      });
      expect(error).toBeNull();
      const { rows } = await stack.ctx.db.query<{ payload: Record<string, unknown> }>(
        'select payload from public.jobs where id = $1',
        [jobId],
      );
      // Out of the way of the next one (one active scan of a type per customer).
      await stack.ctx.db.query(
        "update public.jobs set status = 'cancelled', finished_at = now() where id = $1",
        [jobId],
      );
      await stack.ctx.db.query("update public.scan_results set status = 'stopped' where job_id = $1", [
        jobId,
      ]);
      return rows[0]!.payload;
    };
    expect((await payloadOf()).allow_intrusive).toBe(false);
    await alice.supabase.from('scan_targets').update({ allow_intrusive: true }).eq('id', t.id);
    expect((await payloadOf()).allow_intrusive).toBe(true);
  });
});

describe('consent to intrusive checks: what the scan does', () => {
  const scanOnce = async (userId: string, targetId: string) => {
    const { data: jobId, error } = await service().rpc('enqueue_scan', {
      p_user: userId,
      p_tool: 'webapp',
      p_target_id: targetId,
      p_scanner: 'webapp',
    });
    expect(error).toBeNull();
    const { rows } = await stack.ctx.db.query<{ id: string }>(
      'select id from public.scan_results where job_id = $1',
      [jobId],
    );
    return waitFor(
      'scan finished',
      async () => {
        const row = (
          await stack.ctx.db.query<{ status: string; analyzed_results: Record<string, unknown> | null }>(
            'select status::text, analyzed_results from public.scan_results where id = $1',
            [rows[0]!.id],
          )
        ).rows[0]!;
        return row.status === 'completed' || row.status === 'failed' ? row : null;
      },
      120_000,
      200,
    );
  };

  it('writes nothing without consent, proves the write with it, and a scan without it closes nothing it found', async () => {
    const site = await writableSite();
    try {
      const owner = await customer(stack);
      const t = await target(stack, owner.id, site.url);
      agents.push(
        startAgent({ db: service(), mode: 'local', pollMs: 100, dutyMs: 3_600_000, log: () => {} }),
      );

      // Without consent: no PUT reaches the site, and the result says the intrusive checks were left out.
      const without = await scanOnce(owner.id, t.id);
      expect(without.status).toBe('completed');
      expect(site.writes).toEqual([]);
      const skipped = without.analyzed_results!.categories as {
        ran: string[];
        skipped: { category: string; reason: string; checks: string[]; rules: string[] }[];
      };
      expect(skipped.ran).toEqual(['passive', 'active']);
      expect(skipped.skipped).toEqual([
        expect.objectContaining({
          category: 'intrusive',
          reason: 'no-consent',
          checks: expect.arrayContaining(['web.write-methods']) as unknown,
          rules: expect.arrayContaining(['web.webdav.write']) as unknown,
        }),
      ]);
      expect(without.analyzed_results!.partial).toBe(false);

      // With consent: the marker is written, read back and deleted; the finding is filed.
      await owner.supabase.from('scan_targets').update({ allow_intrusive: true }).eq('id', t.id);
      const withConsent = await scanOnce(owner.id, t.id);
      expect(withConsent.status).toBe('completed');
      expect((withConsent.analyzed_results!.categories as { ran: string[] }).ran).toEqual([
        'passive',
        'active',
        'intrusive',
      ]);
      expect(site.writes.length).toBeGreaterThan(0);
      expect(site.writes.every((p) => /\/vigil-write-probe-[0-9a-f]{12}(-copy|-moved)?\.txt$/.test(p))).toBe(
        true,
      );
      // Cleaned up: nothing the scan wrote is left.
      expect([...site.files.keys()]).toEqual([]);
      const found = async () =>
        (await owner.supabase.from('findings').select('rule_id, status').eq('rule_id', 'web.webdav.write'))
          .data!;
      expect(await found()).toEqual([{ rule_id: 'web.webdav.write', status: 'open' }]);

      // Consent withdrawn: the next scan writes nothing, and does not call the write finding fixed.
      await owner.supabase.from('scan_targets').update({ allow_intrusive: false }).eq('id', t.id);
      const writesBefore = site.writes.length;
      const after = await scanOnce(owner.id, t.id);
      expect(after.status).toBe('completed');
      expect(site.writes.length).toBe(writesBefore);
      expect(await found()).toEqual([{ rule_id: 'web.webdav.write', status: 'open' }]);
    } finally {
      await site.close();
    }
  });
});
