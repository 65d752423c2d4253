import type { RunningStack } from '../../server/stack.ts';
import type { StoredMail } from '../../server/mail/outbox.ts';

/** Shared by the auth*.test.ts suites: reading the local outbox and following e-mail links. */

export const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}@example.com`;

/** The newest e-mail to `to`, optionally the first whose subject matches. */
export async function latestMail(stack: RunningStack, to: string, subject?: RegExp): Promise<StoredMail> {
  const res = await fetch(`${stack.url}/_mail/api/messages?to=${encodeURIComponent(to)}`);
  const mails = (await res.json()) as StoredMail[];
  const mail = mails.find((m) => !subject || subject.test(m.subject));
  if (!mail) {
    throw new Error(`no mail to ${to}${subject ? ` matching ${String(subject)}` : ''}`);
  }
  return mail;
}

export async function mailCount(stack: RunningStack, to: string): Promise<number> {
  const res = await fetch(`${stack.url}/_mail/api/messages?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as StoredMail[]).length;
}

export function verifyLink(mail: StoredMail): string {
  const link = mail.links.find((l) => l.includes('/auth/v1/verify?'));
  if (!link) {
    throw new Error(`mail "${mail.subject}" has no verify link`);
  }
  return link;
}

/** The six-digit code printed in an auth e-mail. */
export function otpFrom(mail: StoredMail): string {
  const m = mail.text.match(/Your code: (\d{6})/);
  if (!m?.[1]) {
    throw new Error('mail has no code');
  }
  return m[1];
}

/** Opens an e-mail link like a browser would, without following the redirect; returns the Location. */
export async function openLink(link: string): Promise<{ status: number; location: URL }> {
  const res = await fetch(link, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (!location) {
    throw new Error(`no redirect from ${link} (status ${res.status})`);
  }
  return { status: res.status, location: new URL(location) };
}

/** Raw request to /auth/v1 with the anon key (or another bearer), for what supabase-js would not send. */
export function authFetch(
  stack: RunningStack,
  path: string,
  init: RequestInit & { bearer?: string } = {},
): Promise<Response> {
  const { bearer, headers, ...rest } = init;
  return fetch(`${stack.url}/auth/v1${path}`, {
    ...rest,
    headers: {
      apikey: stack.status.anon_key,
      authorization: `Bearer ${bearer ?? stack.status.anon_key}`,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
      ...headers,
    },
  });
}
