import type { BrowserContextOptions, Page } from 'playwright-core';

/**
 * Signing in as the demo user, through the console as a user does. No vitest import: the global setup
 * uses these too (tests import them from ./session).
 */
export const DEMO = { phone: '13800000000', password: 'demo1234' };
/** The demo business the tests work in: prepaid, the demo user is its admin, it has the attendance pack. */
export const DEMO_BUSINESS = 'B10001';

/** The page most browser tests use: a desktop window in Chinese. */
export const DESKTOP: BrowserContextOptions = { locale: 'zh-CN', viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' };

/** Fills the sign-in form at `${origin}/login/index` (or the given sign-in URL) and submits it. */
export async function signIn(page: Page, origin: string, password = DEMO.password, url = `${origin}/login/index`): Promise<void> {
  if (url) await page.goto(url);
  await page.getByPlaceholder('请输入手机号').fill(DEMO.phone);
  await page.getByPlaceholder('请输入密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** On the business step of sign-in, enters the given business. */
export async function chooseBusiness(page: Page, businessName: RegExp | string): Promise<void> {
  const picker = page.getByTestId('business-picker');
  await picker.waitFor({ timeout: 20000 });
  await picker.locator('.ant-list-item', { hasText: businessName }).getByRole('button', { name: /进\s*入/ }).click();
}

/** Business names by id, from the gateway (what the picker lists). */
export async function businessName(origin: string, id = DEMO_BUSINESS): Promise<string> {
  const login = await fetch(`${origin.replace(/\/console$/, '')}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(DEMO),
  });
  const body = (await login.json()) as { data: { businessList: Array<{ businessId: string; businessName: string }> } };
  const b = body.data.businessList.find((x) => x.businessId === id);
  if (!b) throw new Error(`demo user has no business ${id}`);
  return b.businessName;
}

/**
 * Signs in as the demo user and enters the demo business (admin, attendance pack) on the business
 * step. Returns the headers the console itself sends to the gateway.
 */
export async function signInToFirstBusiness(page: Page, origin: string): Promise<Record<string, string>> {
  const name = await businessName(origin);
  await signIn(page, origin);
  await chooseBusiness(page, name);
  await page.waitForURL(/\/mine\/home$/);
  const [token, company] = await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('companyId')]);
  if (!token || !company) throw new Error('signed in but token/companyId are not in localStorage');
  return { Authorization: `Bearer ${token}`, 'X-Company-Id': company };
}
