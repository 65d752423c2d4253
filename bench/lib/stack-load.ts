// The bench's load on a running stack, as its users make it: signed-in customers reading the catalogue
// and their own rows over REST, writing metrics, signing in again now and then (bcrypt on the hashing
// threads; the stack's sign-in rate limit answers the rest with 429, as it would), and each with a realtime
// subscription that receives the security events the agents' service role writes for them.
import { createClient, REALTIME_SUBSCRIBE_STATES as STATE, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';

export interface LoadReport {
  requests: number;
  errors: number;
  /** Sign-ins refused by the rate limit (429), which is part of the load, not an error. */
  limited: number;
  realtimeEvents: number;
  seconds: number;
}

interface Customer {
  email: string;
  password: string;
  token: string;
  id: string;
  realtime: SupabaseClient;
}

const json = (res: Response) => res.json() as Promise<Record<string, unknown>>;

async function customer(url: string, anon: string, service: string, n: number): Promise<Customer> {
  const email = `load-${n}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const password = `load-pw-${crypto.randomUUID()}`;
  const created = await fetch(`${url}/auth/v1/admin/users`, {
    method: 'POST',
    headers: { apikey: service, authorization: `Bearer ${service}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, email_confirm: true }),
  });
  if (!created.ok) {
    throw new Error(`creating a load user: ${created.status} ${await created.text()}`);
  }
  const { id } = (await json(created)) as { id: string };
  const token = await signIn(url, anon, email, password);
  if (!token) {
    throw new Error('a load user could not sign in');
  }
  const realtime = createClient(url, anon, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  await realtime.realtime.setAuth(token);
  return { email, password, token, id, realtime };
}

/** The access token, or null when the sign-in was refused (rate limit). */
async function signIn(url: string, anon: string, email: string, password: string): Promise<string | null> {
  const res = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anon, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status === 429) {
    await res.arrayBuffer();
    return null;
  }
  if (!res.ok) {
    throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  }
  return String((await json(res)).access_token);
}

/**
 * Runs the load for `seconds` with `concurrency` request loops over `customers` users, as fast as the stack
 * answers or at about `ratePerSecond` requests in all; `onTick` is called about every `tickMs` (the memory
 * samples).
 */
export async function runLoad(
  url: string,
  options: {
    seconds: number;
    customers?: number;
    concurrency?: number;
    ratePerSecond?: number;
    tickMs?: number;
    onTick?: () => Promise<void>;
  },
): Promise<LoadReport> {
  const status = await json(await fetch(`${url}/_stack/status`));
  const anon = String(status.anon_key);
  const service = String(status.service_role_key);
  const users: Customer[] = [];
  for (let i = 0; i < (options.customers ?? 5); i++) {
    users.push(await customer(url, anon, service, i));
  }
  const report: LoadReport = {
    requests: 0,
    errors: 0,
    limited: 0,
    realtimeEvents: 0,
    seconds: options.seconds,
  };
  await Promise.all(
    users.map(
      (u, i) =>
        new Promise<void>((resolve, reject) => {
          u.realtime
            .channel(`load-${i}`)
            .on(
              'postgres_changes',
              { event: 'INSERT', schema: 'public', table: 'security_events', filter: `user_id=eq.${u.id}` },
              () => void report.realtimeEvents++,
            )
            .subscribe((state, err) => {
              if (state === STATE.SUBSCRIBED) {
                resolve();
              } else if (state === STATE.CHANNEL_ERROR || state === STATE.TIMED_OUT) {
                reject(new Error(`realtime subscription: ${state} ${err?.message ?? ''}`));
              }
            });
        }),
    ),
  );
  const until = performance.now() + options.seconds * 1000;
  const call = async (path: string, init: RequestInit, user?: Customer) => {
    report.requests++;
    const res = await fetch(`${url}${path}`, {
      ...init,
      headers: {
        apikey: anon,
        authorization: `Bearer ${user ? user.token : anon}`,
        'content-type': 'application/json',
        ...(init.headers as Record<string, string> | undefined),
      },
    }).catch(() => null);
    if (!res?.ok) {
      report.errors++;
    }
    await res?.arrayBuffer();
  };
  const begun = performance.now();
  const loop = async (n: number) => {
    for (let i = 0; performance.now() < until; i++) {
      if (options.ratePerSecond) {
        // Paced: wait until the requests made so far are due.
        const due = begun + (report.requests / options.ratePerSecond) * 1000;
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      }
      const user = users[(n + i) % users.length]!;
      await call('/rest/v1/agent_roles?select=*', {});
      await call('/rest/v1/monitoring_metrics?select=*&order=created_at.desc&limit=20', {}, user);
      await call(
        '/rest/v1/monitoring_metrics',
        { method: 'POST', body: JSON.stringify({ metric_name: 'load', value: i, metadata: { n, i } }) },
        user,
      );
      if (i % 10 === 0) {
        // As an agent reports an event: the service role writes it, the owner's subscription receives it.
        report.requests++;
        const res = await fetch(`${url}/rest/v1/security_events`, {
          method: 'POST',
          headers: {
            apikey: service,
            authorization: `Bearer ${service}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({
            user_id: user.id,
            event_type: 'load',
            description: `load ${n}-${i}`,
            severity: 'low',
            status: 'open',
          }),
        }).catch(() => null);
        report.errors += res?.ok ? 0 : 1;
        await res?.arrayBuffer();
      }
      if (i % 50 === 25) {
        report.requests++;
        const token = await signIn(url, anon, user.email, user.password).catch(() => undefined);
        if (token === null) {
          report.limited++;
        } else if (token === undefined) {
          report.errors++;
        } else {
          user.token = token;
          await user.realtime.realtime.setAuth(token);
        }
      }
    }
  };
  let ticking: Promise<void> = Promise.resolve();
  const ticker = setInterval(() => {
    ticking = ticking.then(() => options.onTick?.());
  }, options.tickMs ?? 10_000);
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, (_, n) => loop(n)));
  clearInterval(ticker);
  await ticking;
  await Promise.all(users.map((u) => u.realtime.removeAllChannels()));
  return report;
}
