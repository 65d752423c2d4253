// Locators the end-to-end suites share.
import type { Locator, Page } from 'playwright-core';

/** The first notification (toast) whose text contains `text`. */
export const toast = (page: Page, text: string): Locator =>
  page.getByRole('status').filter({ hasText: text }).first();
