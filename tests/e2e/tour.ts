import type { BrowserContext, Page } from 'playwright-core';
import { PUBLIC_ROUTES, signedInRoutes, routeSlug, CM } from './routeList';
import { businessName, chooseBusiness, signIn, pickFromAccountMenu, openInApp } from './session';

/** One page of the tour: its name (file-name slug), path, whether it is signed in and, for a page route, its title. */
export interface Stop {
  name: string;
  path: string;
  signedIn: boolean;
  title?: string;
}

/**
 * Waits until the page has settled: no spinner or active skeleton left, no finite animation running
 * (a toast fading in would be measured half transparent), web fonts loaded.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning, .ant-skeleton-active'), undefined, { timeout: 30000 });
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout: 10000 },
  );
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/**
 * Opens every route of the specification in one browser context and calls `visit` on each once it
 * has loaded: the public routes and an unknown URL signed out, the business step of sign-in, every
 * signed-in page route (routeList.ts) and, last, the order list in top-navigation mode.
 */
export async function tour(context: BrowserContext, baseUrl: string, visit: (page: Page, stop: Stop) => Promise<void>): Promise<void> {
  const page = await context.newPage();
  for (const [path, title] of PUBLIC_ROUTES) {
    await page.goto(`${baseUrl}${path}`);
    await page.waitForFunction((t) => document.title.startsWith(`${t} · `), title, { timeout: 30000 });
    await page.locator('form, .ant-card').first().waitFor({ timeout: 30000 });
    await settle(page);
    await visit(page, { name: routeSlug(path), path, signedIn: false });
  }
  await page.goto(`${baseUrl}/no/such/page`);
  await page.getByText('页面不存在').first().waitFor({ timeout: 30000 });
  await settle(page);
  await visit(page, { name: 'not-found-signed-out', path: '/no/such/page', signedIn: false });

  await signIn(page, baseUrl);
  await page.getByTestId('business-picker').waitFor({ timeout: 30000 });
  await settle(page);
  await visit(page, { name: 'login-index-business-step', path: '/login/index?step=business', signedIn: true });
  await chooseBusiness(page, await businessName(baseUrl));
  await page.waitForURL(/\/mine\/home$/);
  const [token, company] = await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('companyId')]);
  const auth = { Authorization: `Bearer ${token}`, 'X-Company-Id': String(company) };

  for (const [path, title, content] of await signedInRoutes(baseUrl, auth)) {
    await openInApp(page, path);
    await page.getByTestId('page-title').filter({ hasText: title }).waitFor({ timeout: 30000 });
    await page.locator(content).first().waitFor({ timeout: 30000 });
    await settle(page);
    await visit(page, { name: routeSlug(path.replace(/\/\d+$/, '/id')), path, signedIn: true, title });
  }

  await openInApp(page, `${CM}/order-manage`);
  await page.locator('.ant-table-row').first().waitFor({ timeout: 30000 });
  await switchToTopNav(page);
  await settle(page);
  await visit(page, { name: `${routeSlug(`${CM}/order-manage`)}-top-nav`, path: `${CM}/order-manage`, signedIn: true });
  // Last stop: the context keeps the top navigation (saved in its local storage) until it is closed.
  await page.close();
}

/** Switches the layout to the top navigation through the account menu (opened by a click). */
async function switchToTopNav(page: Page): Promise<void> {
  await pickFromAccountMenu(page, '切换为顶部导航');
  await page.locator('[data-testid=side-menu]').waitFor({ state: 'detached', timeout: 10000 });
}
