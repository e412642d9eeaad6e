import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { earliestCoverStart } from '../../src/server/domain/cover';

/** Insured person management (its attendance tab is where attendance insurance is submitted). */
export const PERSONS_PAGE = '/main/online-insurance/attendance-insurance/insure-person-manage';

/**
 * Opens the attendance tab, picks the first plan and the earliest cover date, imports `csv` (text, saved
 * as attendance.csv, or a file of its own) and waits until its `rows` rows are listed.
 */
export async function fillAttendance(page: Page, origin: string, csv: string | { name: string; mimeType: string; buffer: Buffer }, rows: number): Promise<void> {
  await page.goto(`${origin}${PERSONS_PAGE}?tab=attendance`);
  await page.locator('.ant-select').first().click();
  await page.locator('.ant-select-item-option').first().click();
  const date = page.getByPlaceholder('请选择日期');
  await date.click();
  await date.fill(earliestCoverStart());
  await date.press('Enter');
  const file = typeof csv === 'string' ? { name: 'attendance.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) } : csv;
  await page.locator('input[type=file]').setInputFiles(file);
  // The gateway's roster reader answers (a parse worker reads the file).
  await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count(), { timeout: 30_000 }).toBe(rows);
}

/** Submits the filled attendance, confirms the cost and returns the result shown on the page. */
export async function submitAttendance(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: '提交投保' }).click();
  await page.getByTestId('cost-confirm').waitFor({ timeout: 15000 });
  await page.getByRole('button', { name: '确认并提交投保' }).click();
  const result = page.getByTestId('attendance-result');
  await result.waitFor({ timeout: 20000 });
  return result;
}
