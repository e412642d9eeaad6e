import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from './axe';
import { settle, tour, type Stop } from './tour';
import { expectScreenshots, screenshotChecks } from './screenshots';
import { CM } from './routeList';
import { DEMO, businessName, gatewayUrl, recordErrors, sharedBrowser } from './session';
import { glossaryVariants, textProblems } from './vocabulary';

const baseUrl = gatewayUrl();
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

let browser: Browser;

/** What has keyboard focus: tag, placeholder, text and whether a focus ring is drawn. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'body', placeholder: '', text: '', ring: false, inRow: false };
    // The ring is drawn on the control or, for inputs with icons, selects and pickers, on its frame.
    const frame = el.closest('.ant-input-affix-wrapper, .ant-input-number, .ant-picker, .ant-select') ?? el;
    const hasOutline = (x: Element) => {
      const cs = getComputedStyle(x);
      return cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 1;
    };
    const ring = hasOutline(el) || hasOutline(frame);
    return {
      tag: el.tagName.toLowerCase(),
      placeholder: el.getAttribute('placeholder') ?? '',
      text: (el.textContent ?? '').trim(),
      ring,
      inRow: Boolean(el.closest('.ant-table-row')),
    };
  });
}

/** Presses Tab until `done` holds for the focused element (at most `max` times). */
async function tabUntil(page: Page, done: (f: Awaited<ReturnType<typeof focused>>) => boolean, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (done(f)) return f;
  }
  throw new Error('not reached with the keyboard');
}

const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 1024, height: 768 };

/** What the tour of every route found (one tour for the page, axe, vocabulary and screenshot checks at both sizes). */
const tourResult = {
  pages: 0,
  /** page routes shown with another title, or with the error page */
  wrong: [] as string[],
  /** what any page of the tour logged as an error */
  errors: [] as string[],
  /** the favicon the signed-in console links to */
  icon: '',
  found: [] as string[],
  words: [] as string[],
  endless: [] as string[],
  wide: screenshotChecks(WIDE.width),
  narrow: screenshotChecks(NARROW.width),
};

/** A page route shows its title in the header and in the tab, and not the error page. */
async function checkPage(page: Page, stop: Stop): Promise<void> {
  if (!stop.title) return;
  const header = (await page.getByTestId('page-title').textContent())?.trim();
  if (header !== stop.title) tourResult.wrong.push(`${stop.path}: header ${header}, not ${stop.title}`);
  if (!(await page.title()).startsWith(`${stop.title} · `)) tourResult.wrong.push(`${stop.path}: tab title ${await page.title()}`);
  if (await page.getByText('页面出错了').count()) tourResult.wrong.push(`${stop.path}: 页面出错了`);
  tourResult.icon ||= await page.evaluate(() => (document.querySelector('link[rel="icon"]') as HTMLLinkElement | null)?.href ?? '');
}

/** Resizes the window as a user does and waits until the console has laid itself out again (folded menu, table widths). */
async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await settle(page);
}

/**
 * Opens every route once and, on each page, runs axe-core (axe.ts: in the page, violations only) and
 * reads the visible text for the glossary at 1440×900, and takes the screenshot with its layout checks
 * (screenshots.ts) at 1440×900 and at 1024×768: one visit per route for both sizes, the window resized
 * in between (the side menu folds below 1200 px, the tables fit their columns again). The sizes
 * alternate, so a stop starts at the size the one before ended with and the window is resized once per stop.
 */
async function tourEveryRoute(): Promise<void> {
  const context = await browser.newContext({ viewport: WIDE, locale: 'zh-CN', reducedMotion: 'reduce' });
  recordErrors(context, tourResult.errors);
  const variants = glossaryVariants();
  await tour(context, baseUrl, async (page, stop) => {
    tourResult.pages++;
    await checkPage(page, stop);
    const narrowFirst = page.viewportSize()?.width === NARROW.width;
    if (narrowFirst) {
      await tourResult.narrow.visit(page, stop);
      await resize(page, WIDE);
    }
    for (const v of await axeViolations(page, TAGS)) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      tourResult.found.push(`${stop.path} ${v.id} (${v.impact}): ${v.targets.slice(0, 3).join(' | ')}`);
    }
    // docs/glossary.md: no second term, no doubled field label, every amount with thousands separators.
    const text = await page.evaluate(() => `${document.title}\n${document.body.innerText}`);
    for (const p of textProblems(text, variants)) tourResult.words.push(`${stop.path} ${p}`);
    // The context asks for reduced motion: nothing may move forever (index.html stops antd's status pulse).
    const endless = await page.evaluate(() =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations === Infinity)
        .map((a) => (a as CSSAnimation).animationName ?? 'script animation'),
    );
    if (endless.length) tourResult.endless.push(`${stop.path}: ${[...new Set(endless)].join(', ')}`);
    await tourResult.wide.visit(page, stop);
    if (!narrowFirst) {
      await resize(page, NARROW);
      await tourResult.narrow.visit(page, stop);
    }
  });
  await context.close();
}

describe('accessibility', () => {
  beforeAll(async () => {
    browser = await sharedBrowser();
    await tourEveryRoute();
  }, 600000);
  afterAll(async () => {
    await browser?.close();
  });

  it('opens every route of the specification inside the console with its title and real content, and nothing logs an error', () => {
    expect(tourResult.pages).toBeGreaterThanOrEqual(24);
    expect(tourResult.wrong).toEqual([]);
    expect(tourResult.errors).toEqual([]);
  });

  it('on every route: no serious or critical axe-core violation, and the visible text keeps one vocabulary', () => {
    expect(tourResult.pages).toBeGreaterThanOrEqual(24);
    expect(tourResult.found).toEqual([]);
    expect(tourResult.words).toEqual([]);
  });

  it('with reduced motion asked for, no page runs an endless animation', () => {
    expect(tourResult.endless).toEqual([]);
  });

  it('screenshots of every route at 1440×900: nothing wider than the window, the brand in view, no covered column', () => {
    expectScreenshots(tourResult.wide);
  });

  it('screenshots of every route at 1024×768: the same checks with the side menu folded', () => {
    expectScreenshots(tourResult.narrow);
  });

  it('signs in with the keyboard only, with a visible focus ring, and opens a detail from a list', async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'zh-CN', reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/login/index`);
    await page.getByPlaceholder('请输入手机号').waitFor();
    const phone = await tabUntil(page, (f) => f.placeholder === '请输入手机号');
    expect(phone.ring).toBe(true);
    await page.keyboard.type(DEMO.phone);
    await page.keyboard.press('Tab');
    expect((await focused(page)).placeholder).toBe('请输入密码');
    await page.keyboard.type(DEMO.password);
    await page.keyboard.press('Enter');
    await page.getByTestId('business-picker').waitFor({ timeout: 20000 });

    const name = await businessName(baseUrl);
    const enter = await tabUntil(page, (f) => f.tag === 'button' && f.text === '进入');
    expect(enter.ring).toBe(true);
    // The first 进入 button is the first business of the list (the demo business).
    expect(await page.locator('.ant-list-item').first().innerText()).toContain(name);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/mine\/home$/);

    await page.goto(`${baseUrl}${CM}/order-manage`);
    await page.locator('.ant-table-row').first().waitFor({ timeout: 20000 });
    const link = await tabUntil(page, (f) => f.tag === 'a' && f.inRow, 120);
    expect(link.ring).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`${CM}/order-manage/\\d+$`));
    await page.locator('.ant-descriptions').first().waitFor();
    await context.close();
  }, 300000);

  it('the check itself finds a nameless button, light grey text and an image without alt', async () => {
    const page = await browser.newPage();
    await page.setContent('<html lang="zh-CN"><title>t</title><main><button></button><p style="color:#ccc;background:#fff">浅灰色的文字</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></html>');
    const found = (await axeViolations(page, TAGS)).map((v) => `${v.id} ${v.impact}`).sort();
    expect(found).toEqual(['button-name critical', 'color-contrast serious', 'image-alt critical']);
    await page.close();
  });

  it('every page has a favicon', async () => {
    expect(tourResult.icon).toBeTruthy();
    const r = await fetch(tourResult.icon);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^image\//);
  });
});
