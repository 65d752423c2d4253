import type { Locator, Page } from 'playwright-core';

/**
 * On Security Automation: adds `url` as a web target, hands its verification token to the site (`serve`,
 * which must then answer it), verifies it and returns the target's list item once it shows Verified.
 */
export async function addVerifiedWebTarget(
  page: Page,
  url: string,
  serve: (token: string) => void,
): Promise<Locator> {
  const web = page.getByRole('region', { name: 'Web Application Scanner' });
  await web.getByText('Initialized', { exact: true }).waitFor();
  await page.getByLabel('Website URL').fill(url);
  await page.getByRole('button', { name: 'Add Target' }).click();
  const item = page.getByRole('listitem', { name: url });
  serve(await item.getByLabel(`Verification token for ${url}`).inputValue());
  await item.getByRole('button', { name: 'Verify' }).click();
  await item.getByText('Verified', { exact: true }).waitFor({ timeout: 30_000 });
  return item;
}
