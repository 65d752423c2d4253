// Screenshots of what each end-to-end test saw, kept as artefacts in test-results/screenshots (gitignored).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import type { Page } from 'playwright-core';

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/screenshots');

/** A file-name-safe form of a label such as "dark signed-in /dashboard/settings". */
export function screenshotName(label: string): string {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'page'}.png`;
}

/** Saves a full-page screenshot and returns its path. */
export async function saveScreenshot(page: Page, label: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, screenshotName(label));
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}
