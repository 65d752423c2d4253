// Report generation end to end on the embedded stack: a customer's configuration, "Generate now", the
// worker rendering the PDF from seeded findings (read back with a PDF text extractor), the CSV/JSON
// exports, the report-ready e-mail, and the tenancy of the files (no other customer, no expired URL).
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../../agents/notify/deliver.ts';
import type { RunningStack } from '../../../server/stack.ts';
import { activateAgents } from '../../helpers/agents.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';
import { reportWorker, seedFindings, service, typed } from '../../helpers/reports-support.ts';

let stack: RunningStack;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  alice = await signedInUser(stack, 'alice-reports@example.com', {
    full_name: 'Alice',
    company_name: 'Globex Corporation',
    industry_type: 'Healthcare',
  });
  bob = await signedInUser(stack, 'bob-reports@example.com', {
    full_name: 'Bob',
    company_name: 'Initech',
    industry_type: 'Retail',
  });
  // Reports are for customers with an agent (docs/product.md §14).
  await activateAgents(stack.ctx.db, alice.id, ['cybersecurity_analyst']);
  await activateAgents(stack.ctx.db, bob.id, ['application_security']);
  await seedFindings(stack, alice.id, 12, 'Cleartext login form');
  await seedFindings(stack, bob.id, 3, 'Bob only finding');
  // Scans of the period: one of Alice's ended partial (its time limit, a failed phase), one ran whole; Bob's
  // partial scan is his alone.
  await stack.ctx.db.query(
    `insert into public.scan_results (user_id, scan_type, status, target, analyzed_results) values
       ($1, 'webapp', 'completed', 'https://partial.globex.test',
        '{"partial":true,"stopped":{"reason":"deadline","detail":"stopped after 600 s"},"phase_errors":[{"phase":"injection","error":"the target reset every connection"}]}'),
       ($1, 'api', 'completed', 'https://api.globex.test', '{"partial":false}'),
       ($2, 'webapp', 'completed', 'https://initech.test', '{"partial":true,"stopped":{"reason":"memory"}}')`,
    [alice.id, bob.id],
  );
}, 60_000);
afterAll(async () => {
  await stack.close();
});

async function createConfiguration(
  user: TestUser,
  fields: {
    name: string;
    report_type?: 'soc_compliance' | 'penetration_test';
    schedule_type?: 'daily' | 'one_time';
  },
) {
  const { data, error } = await typed(user)
    .from('report_configurations')
    .insert({
      name: fields.name,
      report_type: fields.report_type ?? 'soc_compliance',
      schedule_type: fields.schedule_type ?? 'daily',
      is_enabled: true,
    })
    .select('id')
    .single();
  expect(error).toBeNull();
  return data!.id;
}

const pdfText = async (bytes: ArrayBuffer) =>
  (await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })).text;

describe('reports', () => {
  let reportId: string;
  let filePath: string;

  it('are not generated for a customer without an agent: 402 and the way to activate', async () => {
    const carol = await signedInUser(stack, 'carol-reports@example.com');
    const configId = await createConfiguration(carol, { name: 'Monthly evidence' });
    const { data, error, status } = await typed(carol).rpc('request_report', { p_configuration: configId });
    expect({ data, status, code: error?.code, hint: error?.hint }).toEqual({
      data: null,
      status: 402,
      code: 'PT402',
      hint: '/dashboard/agents',
    });
    expect(error?.message).toBe('Reports need an active security agent. Activate one on the Agents page.');
    const { data: reports } = await typed(carol).from('generated_reports').select('id');
    expect(reports).toEqual([]);
  });

  it('generates a report on "Generate now" from the customer\'s own findings', async () => {
    const configId = await createConfiguration(alice, { name: 'Quarterly SOC evidence' });
    const { data, error } = await typed(alice).rpc('request_report', { p_configuration: configId });
    expect(error).toBeNull();
    reportId = data!;
    const pending = await typed(alice).from('generated_reports').select('status').eq('id', reportId).single();
    expect(pending.data?.status).toBe('generating');
    // A second click while it is generating is refused rather than queued twice.
    const again = await typed(alice).rpc('request_report', { p_configuration: configId });
    expect(again.error?.code).toBe('PT409');
    expect(again.status).toBe(409);

    expect(await reportWorker(stack).runOnce()).toBe(1);
    const { data: row } = await typed(alice)
      .from('generated_reports')
      .select('status, file_path, report_configurations(name)')
      .eq('id', reportId)
      .single();
    expect(row).toMatchObject({
      status: 'completed',
      file_path: `${alice.id}/${reportId}.pdf`,
      report_configurations: { name: 'Quarterly SOC evidence' },
    });
    filePath = row!.file_path!;

    const pdf = await typed(alice).storage.from('reports').download(filePath);
    expect(pdf.error).toBeNull();
    const text = await pdfText(await pdf.data!.arrayBuffer());
    expect(text).toContain('Globex Corporation');
    expect(text).toContain('SOC Compliance Report');
    expect(text).toContain('Findings (12)');
    expect(text).toContain('Open findings at period end: 12');
    expect(text).toContain('Cleartext login form 7');
    expect(text).toContain('HIPAA Security Rule');
    expect(text).not.toContain('Bob only finding');
    expect(text).not.toContain('Initech');
    // The scan that did not run every check, which part and why.
    expect(text).toContain('Scans: 2 (2 completed, 1 of them partial, 0 failed)');
    expect(text).toContain('Scans that did not run every check');
    expect(text).toContain('https://partial.globex.test');
    expect(text).toContain('Partial: time limit reached');
    expect(text).toContain('injection: the target reset every connection');
    expect(text).not.toContain('initech.test');

    const csv = await typed(alice).storage.from('reports').download(`${alice.id}/${reportId}.csv`);
    expect((await csv.data!.text()).trim().split('\r\n')).toHaveLength(13);
    const json = JSON.parse(
      await (
        await typed(alice).storage.from('reports').download(`${alice.id}/${reportId}.json`)
      ).data!.text(),
    ) as { findings: unknown[]; company_name: string; totals: { scans: unknown } };
    expect(json).toMatchObject({ company_name: 'Globex Corporation' });
    expect(json.totals.scans).toMatchObject({
      partial: 1,
      incomplete: [
        {
          target: 'https://partial.globex.test',
          note: 'Partial: time limit reached',
          details: ['stopped after 600 s', 'injection: the target reset every connection'],
        },
      ],
    });
    expect(json.findings).toHaveLength(12);
  }, 60_000);

  it('queues a report-ready e-mail when e-mail notifications are on, and none when they are off', async () => {
    const { rows } = await stack.ctx.db.query<{ recipient: string; subject: string }>(
      `select recipient, subject from public.notification_outbox where dedupe_key = $1`,
      [`email:report:${reportId}`],
    );
    expect(rows).toEqual([
      { recipient: 'alice-reports@example.com', subject: 'Vigil: your SOC Compliance Report is ready' },
    ]);
    // The notifier sends it with its own text (not as a security-alert digest).
    const sent: { to: string; subject: string; text: string }[] = [];
    await deliverDue(service(stack), {
      mode: 'local',
      mail: { send: (m) => Promise.resolve(void sent.push(m)) },
    });
    expect(sent).toContainEqual(
      expect.objectContaining({
        to: 'alice-reports@example.com',
        subject: 'Vigil: your SOC Compliance Report is ready',
        text: expect.stringContaining('Quarterly SOC evidence') as unknown,
      }),
    );

    await stack.ctx.db.query(
      `update public.user_settings set email_notifications = false where user_id = $1`,
      [bob.id],
    );
    const configId = await createConfiguration(bob, { name: 'Bob pentest', report_type: 'penetration_test' });
    const { data: bobReport } = await typed(bob).rpc('request_report', { p_configuration: configId });
    await reportWorker(stack).runOnce();
    const quiet = await stack.ctx.db.query(`select 1 from public.notification_outbox where dedupe_key = $1`, [
      `email:report:${bobReport}`,
    ]);
    expect(quiet.rows).toHaveLength(0);
  }, 60_000);

  it("never lets another customer read, sign, list or generate from a customer's reports", async () => {
    const download = await typed(bob).storage.from('reports').download(filePath);
    expect(download.data).toBeNull();
    const signed = await typed(bob).storage.from('reports').createSignedUrl(filePath, 60);
    expect(signed.data).toBeNull();
    const listed = await typed(bob).storage.from('reports').list(alice.id);
    expect(listed.data ?? []).toHaveLength(0);
    const rows = await typed(bob).from('generated_reports').select('id').eq('id', reportId);
    expect(rows.data).toEqual([]);
    // Guessing the path with traversal is refused too.
    const traversal = await typed(bob).storage.from('reports').download(`${bob.id}/../${filePath}`);
    expect(traversal.data).toBeNull();
    const { data: aliceConfig } = await typed(alice)
      .from('report_configurations')
      .select('id')
      .limit(1)
      .single();
    const generate = await typed(bob).rpc('request_report', { p_configuration: aliceConfig!.id });
    expect(generate.error?.code).toBe('PT404');
    expect(generate.status).toBe(404);
    // Nor can the customer write into the bucket, even in their own folder (the agents write reports).
    const upload = await typed(alice)
      .storage.from('reports')
      .upload(`${alice.id}/forged.pdf`, new Blob(['%PDF-forged']), { contentType: 'application/pdf' });
    expect(upload.error).not.toBeNull();
    // Anonymous callers get nothing either.
    const anon = client(stack, 'anon').storage.from('reports');
    expect((await anon.createSignedUrl(filePath, 60)).data).toBeNull();
    expect((await anon.download(filePath)).data).toBeNull();
  });

  it('serves a signed URL to anyone holding it only until it expires', async () => {
    const reports = typed(alice).storage.from('reports');
    // One URL to read while it is valid (a minute: a busy host may take over a second to fetch it), and
    // one that lives a second, read after two.
    const [{ data, error }, short] = await Promise.all([
      reports.createSignedUrl(filePath, 60, { download: 'report.pdf' }),
      reports.createSignedUrl(filePath, 1, { download: 'report.pdf' }),
    ]);
    expect(error).toBeNull();
    expect(short.error).toBeNull();
    const fresh = await fetch(data!.signedUrl);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('content-type')).toContain('application/pdf');
    await fresh.arrayBuffer();
    await new Promise((r) => setTimeout(r, 2100));
    const expired = await fetch(short.data!.signedUrl);
    expect(expired.status).toBeGreaterThanOrEqual(400);
    const tampered = await fetch(data!.signedUrl.replace(alice.id, bob.id));
    expect(tampered.status).toBeGreaterThanOrEqual(400);
  });

  it('settles a report as failed when its job dies without a worker (stalled on the last attempt)', async () => {
    const configId = await createConfiguration(alice, { name: 'Orphaned' });
    const { data: orphanId } = await typed(alice).rpc('request_report', { p_configuration: configId });
    // A worker claimed it on its last attempt and died: the lease ran out.
    await stack.ctx.db.query(
      `update public.jobs set status = 'running', attempts = max_attempts, locked_by = 'dead-worker', lease_until = now() - interval '1 minute'
       where payload ->> 'report_id' = $1`,
      [orphanId],
    );
    expect(await reportWorker(stack).runOnce()).toBe(0);
    const { data: row } = await typed(alice)
      .from('generated_reports')
      .select('status, failure_reason')
      .eq('id', orphanId!)
      .single();
    expect(row?.status).toBe('failed');
    expect(row?.failure_reason).toMatch(/stalled/);
    // The configuration can be generated again.
    expect((await typed(alice).rpc('request_report', { p_configuration: configId })).error).toBeNull();
  });

  it('records why a report failed on its last attempt', async () => {
    const configId = await createConfiguration(alice, { name: 'Will fail', report_type: 'penetration_test' });
    const { data: failingId } = await typed(alice).rpc('request_report', { p_configuration: configId });
    // The bucket stops accepting CSV, so the upload fails; with one attempt allowed the row is settled.
    await stack.ctx.db.query(
      `update storage.buckets set allowed_mime_types = array['application/pdf'] where id = 'reports'`,
    );
    await stack.ctx.db.query(`update public.jobs set max_attempts = 1 where payload ->> 'report_id' = $1`, [
      failingId,
    ]);
    try {
      await reportWorker(stack).runOnce();
    } finally {
      await stack.ctx.db.query(
        `update storage.buckets set allowed_mime_types = array['application/pdf', 'text/csv', 'application/json'] where id = 'reports'`,
      );
    }
    const { data: row } = await typed(alice)
      .from('generated_reports')
      .select('status, failure_reason, file_path')
      .eq('id', failingId!)
      .single();
    expect(row?.status).toBe('failed');
    expect(row?.failure_reason).toMatch(/CSV/);
    expect(row?.file_path).toBeNull();
  }, 60_000);
});
