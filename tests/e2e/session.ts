import type { Page } from 'playwright-core';

export const DEMO = { phone: '13800000000', password: 'demo1234' };

/** Fills the sign-in form at `${origin}/login` and submits it. */
export async function signIn(page: Page, origin: string, password = DEMO.password): Promise<void> {
  await page.goto(`${origin}/login`);
  await page.getByPlaceholder('请输入手机号').fill(DEMO.phone);
  await page.getByPlaceholder('请输入密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/**
 * Signs in as the demo user and enters the first business (where the demo user is an admin with the
 * attendance pack). Returns the headers the console itself sends to the gateway.
 */
export async function signInToFirstBusiness(page: Page, origin: string): Promise<Record<string, string>> {
  await signIn(page, origin);
  await page.waitForURL(/\/mine\/business$/);
  await page.locator('a', { hasText: '进入' }).first().click();
  await page.waitForURL(/\/mine\/home$/);
  const [token, company] = await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('companyId')]);
  if (!token || !company) throw new Error('signed in but token/companyId are not in localStorage');
  return { Authorization: `Bearer ${token}`, 'X-Company-Id': company };
}
