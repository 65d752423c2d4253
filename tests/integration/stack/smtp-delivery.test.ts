// E-mail delivery end to end, as a deployment with SMTP_URL runs it: the stack in a process of its own,
// trusting its relay's CA as a machine's store would (NODE_EXTRA_CA_CERTS), hands its messages to a real
// Exim from Debian. A sign-up's confirmation arrives, over TLS where the relay offers it, with a link that
// confirms the account; a relay that refuses the recipient, or whose certificate the stack cannot trust,
// gets nothing, and the stack says why in its log (the sign-up itself goes on: the outbox keeps a copy).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { debian } from '../../fixtures/debian-packages.ts';
import { startEximRelay, type RunningRelay } from '../../fixtures/stack/exim-relay.ts';
import { readMessage } from '../../fixtures/mime.ts';
import { makeTestPki, type TestPki } from '../../fixtures/tls/tls-certs.ts';
import { budget } from '../../helpers/budget.ts';
import { requires, root } from '../../helpers/requirements.ts';
import { openLink, uniqueEmail } from '../../helpers/auth-support.ts';

const CHILD = path.resolve(import.meta.dirname, '../../helpers/stack-child.ts');
const password = 'correct-horse-battery-7';
const REFUSAL = '550 5.1.1 this mailbox takes no mail';

interface ChildStack {
  url: string;
  anonKey: string;
  /** What the stack wrote to stderr so far. */
  log: () => string;
  close: () => Promise<void>;
}

/** The stack in its own process, delivering over `smtpUrl` and trusting the test PKI's root. */
async function startStackChild(smtpUrl: string, pki: TestPki): Promise<ChildStack> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD, 'memory'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: '',
      SMTP_URL: smtpUrl,
      NODE_EXTRA_CA_CERTS: pki.rootFile,
      VIGIL_AUTOCONFIRM: 'false',
    },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    void exited.then(() => reject(new Error(`the stack exited before serving: ${stderr}`)));
  });
  const { url, anonKey } = JSON.parse(first) as { url: string; anonKey: string };
  return {
    url,
    anonKey,
    log: () => stderr,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** supabase-js as a browser signs up with it (Node 20 needs the ws transport). */
const anon = (stack: ChildStack) =>
  createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });

async function signUp(stack: ChildStack, email: string): Promise<void> {
  const { error } = await anon(stack).auth.signUp({ email, password });
  expect(error).toBeNull();
}

/** The message to `email` once the relay has delivered it. */
async function deliveredTo(relay: RunningRelay, email: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(() => (found = relay.delivered().find((raw) => raw.includes(email))), { timeout: 10_000 })
    .toBeDefined();
  return found!;
}

const needs = requires(debian('exim4-daemon-light'), root('Exim delivers mail as its own user'));

describe('e-mail delivery over SMTP to a real Exim', needs, () => {
  let pki: TestPki;
  const relays: RunningRelay[] = [];
  const stacks: ChildStack[] = [];
  let tlsRelay: RunningRelay;
  let plainRelay: RunningRelay;
  let strangerRelay: RunningRelay;
  let overTls: ChildStack;
  let inClear: ChildStack;
  let toStranger: ChildStack;

  // Three relays and three stacks in processes of their own: about 8 s on a quiet machine.
  beforeAll(async () => {
    pki = makeTestPki();
    const trusted = pki.issue('relay', { san: 'IP:127.0.0.1', key: 'rsa:2048', digest: 'sha256' });
    const stranger = pki.issue('stranger-relay', {
      san: 'IP:127.0.0.1',
      key: 'rsa:2048',
      digest: 'sha256',
      unknownIssuer: true,
    });
    relays.push(
      (tlsRelay = await startEximRelay({ tls: trusted, refuse: ['refused@example.test'], refusal: REFUSAL })),
      (plainRelay = await startEximRelay()),
      (strangerRelay = await startEximRelay({ tls: { chain: stranger.cert, key: stranger.key } })),
    );
    stacks.push(
      ...(await Promise.all([
        startStackChild(`smtp://127.0.0.1:${tlsRelay.port}`, pki).then((s) => (overTls = s)),
        startStackChild(`smtp://127.0.0.1:${plainRelay.port}`, pki).then((s) => (inClear = s)),
        startStackChild(`smtp://127.0.0.1:${strangerRelay.port}`, pki).then((s) => (toStranger = s)),
      ])),
    );
  }, budget(10_000));
  afterAll(async () => {
    await Promise.all([...stacks, ...relays].map((running) => running.close()));
    pki?.remove();
  });

  it('delivers the sign-up confirmation over STARTTLS, with a link that confirms the account', async () => {
    const email = uniqueEmail('smtp');
    await signUp(overTls, email);
    const message = readMessage(await deliveredTo(tlsRelay, email));
    // Exim records how the message came: esmtps with the TLS version and suite.
    expect(message.headers.get('received')?.[0]).toMatch(/with esmtps\s+\(TLS1\.[23]\) tls TLS_/);
    expect(message.headers.get('to')?.[0]).toContain(email);
    const text = message.parts.get('text/plain') ?? '';
    const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(text)?.[0];
    expect(link).toBeDefined();
    // The same link as the outbox's copy, and it confirms: the password signs in afterwards.
    const outbox = (await (
      await fetch(`${overTls.url}/_mail/api/messages?to=${encodeURIComponent(email)}`)
    ).json()) as {
      links: string[];
    }[];
    expect(outbox[0]?.links).toContain(link);
    const { location } = await openLink(link!);
    expect(location.hash).toMatch(/access_token=/);
    const signedIn = await anon(overTls).auth.signInWithPassword({
      email,
      password,
    });
    expect(signedIn.error).toBeNull();
  });

  it('delivers in clear to a relay that offers no TLS', async () => {
    const email = uniqueEmail('smtp-plain');
    await signUp(inClear, email);
    const received = readMessage(await deliveredTo(plainRelay, email)).headers.get('received')?.[0] ?? '';
    expect(received).toMatch(/with esmtp /);
    expect(received).not.toMatch(/esmtps|TLS/);
  });

  it("says in its log that the relay refused the recipient, with the relay's own words", async () => {
    await signUp(overTls, 'refused@example.test');
    await expect
      .poll(() => overTls.log(), { timeout: 10_000 })
      .toMatch(/SMTP delivery to refused@example\.test failed/);
    expect(overTls.log()).toContain(REFUSAL.slice(4));
    expect(tlsRelay.delivered().some((raw) => raw.includes('refused@example.test'))).toBe(false);
  });

  it('sends nothing to a relay whose certificate it cannot trust, and says so', async () => {
    const email = uniqueEmail('smtp-stranger');
    await signUp(toStranger, email);
    await expect
      .poll(() => toStranger.log(), { timeout: 10_000 })
      .toMatch(/SMTP delivery to .* failed: .*certificate/);
    expect(strangerRelay.delivered()).toEqual([]);
  });
});
