import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registeredAccount, setUpBrowserSuite, staffAccount } from './helpers.ts';

const suite = setUpBrowserSuite();

/** Every CSP violation (from the first script on), console error and uncaught error the page reports. */
async function watchErrors(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push(message.text());
  });
  page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
  return seen;
}

describe('the API reference for staff, in Chromium', () => {
  it('shows a reviewer the document under its own policy, with no violation and no error', async () => {
    const reviewer = await staffAccount(suite.server, 'Rita', 'Review', 'reviewer');
    const page = await suite.signedIn(reviewer);
    const errors = await watchErrors(page);
    const response = await page.goto('/api/admin/reference');
    expect(response?.status()).toBe(200);
    // The document's title (info.title) and one of its routes, as the viewer renders them.
    const { info } = (await (await fetch(`${suite.server.baseUrl}/api/openapi.json`)).json()) as { info: { title: string } };
    await page.getByRole('heading', { name: info.title }).first().waitFor({ timeout: 20_000 });
    // A route as the viewer lists it: its method and path.
    const health = page.getByText('/api/health', { exact: true }).first();
    await health.waitFor();
    expect(await health.isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('is refused signed out and to a plain user', async () => {
    expect((await fetch(`${suite.server.baseUrl}/api/admin/reference`)).status).toBe(401);
    const user = await registeredAccount(suite.server, 'Meena');
    expect((await suite.api(user, 'GET', '/api/admin/reference')).status).toBe(403);
    expect((await suite.api(user, 'GET', '/api/admin/reference/scalar.js')).status).toBe(403);
  });
});
