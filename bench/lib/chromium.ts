/** Headless Chromium (playwright-core) with the flags that work on this machine, and the demo sign-in. */
import { chromium, type Browser, type Page } from 'playwright-core';
import { DEMO } from './gateway.ts';

// One set of launch flags for tests and benchmarks (closed network, running as root).
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/e2e/chromium.ts';
export { CHROMIUM_ARGS, CHROMIUM_PATH };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** The sign-in page: /login/index (new route) when it renders the form, else /login. Returns the path used. */
export async function openSignIn(page: Page, origin: string): Promise<string> {
  for (const path of ['/login/index', '/login']) {
    await page.goto(origin + path, { waitUntil: 'load', timeout: 30_000 });
    const ok = await page
      .getByPlaceholder('请输入手机号')
      .waitFor({ state: 'visible', timeout: path === '/login' ? 30_000 : 8_000 })
      .then(() => true, () => false);
    if (ok) return path;
  }
  throw new Error('sign-in form (请输入手机号) not found at /login/index or /login');
}

/** Fills and submits the sign-in form on the current page; enters the first business if asked. */
export async function submitSignIn(page: Page): Promise<void> {
  await page.getByPlaceholder('请输入手机号').fill(DEMO.phone);
  await page.getByPlaceholder('请输入密码').fill(DEMO.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const enter = page.locator('a, button', { hasText: /^\s*进\s*入\s*$/ });
    if ((await enter.count()) > 0) {
      const before = page.url();
      await enter.first().click();
      await page.waitForURL((u) => u.toString() !== before, { timeout: 15_000 });
      return;
    }
    const path = new URL(page.url()).pathname;
    if (!path.startsWith('/login') && !/business/.test(path) && (await page.locator('.ant-layout').count()) > 0) return;
    await page.waitForTimeout(200);
  }
  throw new Error(`sign-in did not reach the console (still at ${page.url()})`);
}

/**
 * Signs in on a fresh page and enters `business` (by its name in the business step, when the demo user
 * has several); checks that the console's session is in it.
 */
export async function signInTo(page: Page, origin: string, business: string): Promise<void> {
  const login = await fetch(`${origin}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO) });
  const list = ((await login.json()) as { data?: { businessList?: Array<{ businessId: string; businessName: string }> } }).data?.businessList ?? [];
  const name = list.find((b) => b.businessId === business)?.businessName;
  if (!name) throw new Error(`the demo user has no business ${business}`);
  await openSignIn(page, origin);
  await page.getByPlaceholder('请输入手机号').fill(DEMO.phone);
  await page.getByPlaceholder('请输入密码').fill(DEMO.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  const picker = page.locator('.ant-list-item', { hasText: name }).getByRole('button', { name: /进\s*入/ });
  const inConsole = page.locator('.ant-layout');
  await picker.or(inConsole).first().waitFor({ timeout: 30_000 });
  if (await picker.count()) await picker.first().click();
  await page.waitForFunction((id) => localStorage.getItem('companyId') === id, business, { timeout: 30_000 });
}
