// Starts the embedded stack in memory (serving dist/web) and Debian's Chromium; never downloads a browser.
import { existsSync } from 'node:fs';
import path from 'node:path';

import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

import type { RunningStack } from '../../server/stack.ts';
import { defaultWebDir } from '../../server/web/routes.ts';
import { startTestStack } from '../helpers/stack.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface E2E {
  stack: RunningStack;
  browser: Browser;
  close(): Promise<void>;
}

export async function startE2E(overrides: Parameters<typeof startTestStack>[0] = {}): Promise<E2E> {
  if (!existsSync(path.join(defaultWebDir(), 'index.html'))) {
    throw new Error(`${defaultWebDir()} is missing: run \`npm run build:web\` before the end-to-end tests`);
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  }
  const stack = await startTestStack(overrides);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  return {
    stack,
    browser,
    async close() {
      await browser.close();
      await stack.close();
    },
  };
}

/** A fresh browser profile (its own local storage) with a page on the stack's origin. */
export async function newPage(
  e2e: E2E,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await e2e.browser.newContext({ baseURL: e2e.stack.url, viewport });
  const page = await context.newPage();
  return { context, page };
}

interface MailMessage {
  to: string;
  created_at: string;
  subject: string;
  links: string[];
}

/** The newest mail the stack sent to `to`, waiting up to `timeoutMs` for it. */
export async function latestMail(stack: RunningStack, to: string, timeoutMs = 10_000): Promise<MailMessage> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const response = await fetch(`${stack.url}/_mail/api/messages?to=${encodeURIComponent(to)}`);
    const body = (await response.json()) as MailMessage[] | { messages: MailMessage[] };
    const list = Array.isArray(body) ? body : body.messages;
    const last = [...list].sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
    if (last) {
      return last;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${to}`);
}
