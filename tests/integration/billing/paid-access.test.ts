// What a customer reaches without paying (docs/product.md §14), at the SQL level on PGlite and PostgreSQL 15: scans,
// verifications and reports need an active or trialing agent covering the scan type, whoever queues them;
// one free trial per customer and per card; the desktop's realtime topic admits only its own user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../../server/db/database.ts';
import { mayWrite, readPolicies } from '../../../server/realtime/channel-policies.ts';
import type { SubscriberAuth } from '../../../server/realtime/subscriber-auth.ts';
import { activateAgents } from '../../helpers/agents.ts';
import {
  anon,
  asUser,
  attempt,
  createUser,
  schemaTargets,
  service,
  touched,
} from '../../helpers/db-roles.ts';
import { runAs } from '../../../server/db/as-role.ts';
import { isPgError } from '../../../server/db/database.ts';

/** The SQLSTATE and message a statement failed with, or null when it succeeded. */
async function failure(
  db: Database,
  who: Parameters<typeof runAs>[1],
  fn: (tx: Queryable) => Promise<unknown>,
): Promise<{ code: string; message: string; hint: string | undefined } | null> {
  try {
    await runAs(db, who, fn);
    return null;
  } catch (e) {
    if (isPgError(e)) {
      return { code: e.code, message: e.message, hint: (e as { hint?: string }).hint };
    }
    throw e;
  }
}

const WEB_REFUSAL =
  'Web application scans need an active Penetration Tester or Application Security agent. Activate one on the Agents page.';
const REPORT_REFUSAL = 'Reports need an active security agent. Activate one on the Agents page.';

describe.each(schemaTargets())('paid access on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });

  /** A customer with a verified URL target and a report configuration. */
  async function customerWithTarget(): Promise<{ user: string; target: string; config: string }> {
    const user = await createUser(db);
    const { rows } = await db.query<{ id: string }>(
      `insert into public.scan_targets (user_id, kind, value, verified_at, verification_method)
       values ($1, 'url', 'https://' || $2 || '.example.com', now(), 'http') returning id`,
      [user, user.slice(0, 8)],
    );
    const config = await db.query<{ id: string }>(
      `insert into public.report_configurations (user_id, name) values ($1, 'Weekly') returning id`,
      [user],
    );
    return { user, target: rows[0]!.id, config: config.rows[0]!.id };
  }

  const enqueueScan = (user: string, target: string, tool: string) =>
    failure(db, service, (tx) =>
      tx.query(`select public.enqueue_scan($1, $2::public.security_tool_type, $3, $4)`, [
        user,
        tool,
        target,
        tool === 'siem' ? 'infrastructure' : tool,
      ]),
    );
  const requestReport = (user: string, config: string) =>
    failure(db, asUser(user), (tx) => tx.query(`select public.request_report($1)`, [config]));
  const insertJob = (user: string, kind: string, payload: object) =>
    failure(db, service, (tx) =>
      tx.query(`insert into public.jobs (user_id, kind, payload) values ($1, $2, $3::jsonb)`, [
        user,
        kind,
        JSON.stringify(payload),
      ]),
    );

  it('defines once which agents cover which scan type', async () => {
    const { rows } = await db.query<{ scan_type: string; covered: boolean; agents: string[] }>(
      `select scan_type::text, covered, agents from public.agent_coverage($1) order by scan_type`,
      [await createUser(db)],
    );
    expect(rows).toEqual([
      { scan_type: 'api', covered: false, agents: ['Penetration Tester', 'Application Security'] },
      { scan_type: 'cloud_security', covered: false, agents: ['Cloud Security'] },
      { scan_type: 'infrastructure', covered: false, agents: ['Penetration Tester', 'Cloud Security'] },
      {
        scan_type: 'siem',
        covered: false,
        agents: ['Cybersecurity Analyst', 'Incident Responder', 'Forensics Investigator'],
      },
      { scan_type: 'threat_intel', covered: false, agents: ['Threat Intelligence'] },
      { scan_type: 'webapp', covered: false, agents: ['Penetration Tester', 'Application Security'] },
    ]);
    // Every role unlocks something; the catalogue is readable by visitors and written by no client.
    const unused = await db.query(
      `select role_type from public.agent_roles r
        where not exists (select 1 from public.agent_scan_coverage c where c.role_type = r.role_type)`,
    );
    expect(unused.rows).toEqual([]);
    expect(await attempt(db, anon, (tx) => tx.query('select * from public.agent_scan_coverage'))).toEqual(
      touched(11),
    );
    expect(
      (
        await failure(db, asUser(await createUser(db)), (tx) =>
          tx.query(`insert into public.agent_scan_coverage values ('cloud_security', 'webapp')`),
        )
      )?.code,
    ).toBe('42501');
  });

  it('queues no scan, verification or report for a customer without an agent, whoever asks', async () => {
    const { user, target, config } = await customerWithTarget();
    expect(await enqueueScan(user, target, 'webapp')).toEqual({
      code: 'PT402',
      message: WEB_REFUSAL,
      hint: '/dashboard/agents',
    });
    expect(await requestReport(user, config)).toEqual({
      code: 'PT402',
      message: REPORT_REFUSAL,
      hint: '/dashboard/agents',
    });
    // A service-role insert straight into the queue is held to the same rule.
    expect((await insertJob(user, 'verify', { target_id: target, tool_type: 'webapp' }))?.code).toBe('PT402');
    expect((await insertJob(user, 'scan', { target_id: target, tool_type: 'infrastructure' }))?.code).toBe(
      'PT402',
    );
    expect((await insertJob(user, 'report', {}))?.code).toBe('PT402');
    // A scan or verification job must say which scan type it is for.
    expect((await insertJob(user, 'verify', { target_id: target }))?.code).toBe('22023');
    expect((await insertJob(user, 'scan', { tool_type: 'everything' }))?.code).toBe('22023');
    // Internal work is not a paid feature.
    expect(await insertJob(user, 'analysis', {})).toBeNull();
    const { rows } = await db.query(`select 1 from public.jobs where user_id = $1 and kind <> 'analysis'`, [
      user,
    ]);
    expect(rows).toEqual([]);
  });

  it('unlocks exactly the scan types its agents cover while they are active or trialing', async () => {
    const { user, target, config } = await customerWithTarget();
    await activateAgents(db, user, ['application_security'], 'trialing');
    expect(await enqueueScan(user, target, 'webapp')).toBeNull();
    expect(await enqueueScan(user, target, 'api')).toBeNull();
    expect((await enqueueScan(user, target, 'infrastructure'))?.message).toBe(
      'Infrastructure scans need an active Penetration Tester or Cloud Security agent. Activate one on the Agents page.',
    );
    expect((await enqueueScan(user, target, 'siem'))?.code).toBe('PT402');
    expect(await requestReport(user, config)).toBeNull();

    // Paid: still covered. Past due, unpaid or canceled: nothing new is queued.
    await activateAgents(db, user, ['application_security'], 'active');
    expect(await insertJob(user, 'verify', { target_id: target, tool_type: 'webapp' })).toBeNull();
    await activateAgents(db, user, ['application_security'], 'canceled');
    expect((await insertJob(user, 'verify', { target_id: target, tool_type: 'webapp' }))?.code).toBe('PT402');
    expect((await insertJob(user, 'report', {}))?.code).toBe('PT402');
  });

  it("shows each customer only their own coverage and keeps the gate's function to the service role", async () => {
    const alice = await createUser(db);
    const bob = await createUser(db);
    await activateAgents(db, alice, ['penetration_tester']);
    const covered = (who: string, about: string) =>
      runAs(db, asUser(who), (tx) =>
        tx.query<{ scan_type: string }>(
          `select scan_type::text from public.agent_coverage($1) where covered order by scan_type`,
          [about],
        ),
      );
    expect((await covered(alice, alice)).rows.map((r) => r.scan_type)).toEqual([
      'api',
      'infrastructure',
      'webapp',
    ]);
    expect((await covered(bob, alice)).rows).toEqual([]);
    expect(
      (await failure(db, anon, (tx) => tx.query(`select * from public.agent_coverage($1)`, [alice])))?.code,
    ).toBe('42501');
    expect(
      (
        await failure(db, asUser(alice), (tx) =>
          tx.query(`select public.require_agent($1, 'webapp')`, [alice]),
        )
      )?.code,
    ).toBe('42501');
  });

  it('gives one free trial per customer and per card', async () => {
    const alice = await createUser(db);
    const bob = await createUser(db);
    const carol = await createUser(db);
    const claim = (user: string, sub: string, card: string | null) =>
      runAs(db, service, (tx) =>
        tx.query<{ ok: boolean }>(`select public.billing_claim_trial($1, $2, $3) as ok`, [user, sub, card]),
      ).then((r) => r.rows[0]!.ok);
    const available = (user: string) =>
      runAs(db, asUser(user), (tx) =>
        tx.query<{ ok: boolean }>(`select public.my_trial_available() as ok`),
      ).then((r) => r.rows[0]!.ok);
    const cardA = `fpA${alice.slice(0, 8)}`;

    expect(await available(alice)).toBe(true);
    expect(await claim(alice, `sub_a1_${alice}`, cardA)).toBe(true);
    // The same subscription's later events keep it; the customer's second subscription does not get one.
    expect(await claim(alice, `sub_a1_${alice}`, null)).toBe(true);
    expect(await available(alice)).toBe(false);
    expect(await claim(alice, `sub_a2_${alice}`, null)).toBe(false);
    // Another account paying with the same card gets no trial; with its own card it does.
    expect(await claim(bob, `sub_b1_${bob}`, cardA)).toBe(false);
    expect(await available(bob)).toBe(true);
    expect(await claim(bob, `sub_b2_${bob}`, `fpB${bob.slice(0, 8)}`)).toBe(true);
    expect(await available(carol)).toBe(true);

    // A deleted account's card stays used.
    await db.query('delete from auth.users where id = $1', [alice]);
    expect(await claim(carol, `sub_c1_${carol}`, cardA)).toBe(false);

    // Only the service role claims; customers and visitors may not even ask about someone else.
    expect(
      (
        await failure(db, asUser(carol), (tx) =>
          tx.query(`select public.billing_claim_trial($1, 'sub_x', null)`, [carol]),
        )
      )?.code,
    ).toBe('42501');
    expect(
      (await failure(db, asUser(carol), (tx) => tx.query(`select public.trial_available($1)`, [bob])))?.code,
    ).toBe('42501');
    expect((await failure(db, anon, (tx) => tx.query(`select public.my_trial_available()`)))?.code).toBe(
      '42501',
    );
    expect(await attempt(db, asUser(bob), (tx) => tx.query(`select * from public.billing_trials`))).toEqual({
      ok: false,
      code: '42501',
    });
  });

  it('lets only one of two concurrent checkouts of one customer keep its trial', async () => {
    const dave = await createUser(db);
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        runAs(db, service, (tx) =>
          tx.query<{ ok: boolean }>(`select public.billing_claim_trial($1, $2, null) as ok`, [
            dave,
            `sub_d${n}_${dave}`,
          ]),
        ).then((r) => r.rows[0]!.ok),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("admits only the desktop topic's own user to it, and lets nobody send on it", async () => {
    const alice = await createUser(db);
    const bob = await createUser(db);
    const subscriber = (id: string | null): SubscriberAuth =>
      id
        ? { role: 'authenticated', claims: asUser(id).claims, token: '', claimsKey: id }
        : { role: 'anon', claims: { role: 'anon' }, token: '', claimsKey: 'anon' };
    const topic = `vigil-desktop-${alice}-1`;
    const reads = async (who: string | null, t = topic) =>
      (await readPolicies(db, subscriber(who), t, ['broadcast', 'presence'])).broadcast;
    expect(await reads(alice)).toBe(true);
    expect(await reads(bob)).toBe(false);
    expect(await reads(null)).toBe(false);
    expect(await reads(alice, `vigil-desktop-${alice}-1-extra`)).toBe(false);
    expect(await reads(alice, `other-vigil-desktop-${alice}-1`)).toBe(false);
    for (const who of [alice, bob, null]) {
      expect(await mayWrite(db, subscriber(who), topic, 'broadcast')).toBe(false);
    }
  });
});
