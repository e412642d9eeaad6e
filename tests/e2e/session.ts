/**
 * What an e2e test file uses: its gateway, the shared browser and a signed-in page.
 *
 * How the e2e suite runs (vite.config.ts, global-setup.ts): the console is built once; one headless
 * Chromium serves every file; each worker slot (VITEST_POOL_ID) has its own gateway with fresh demo
 * data, so the e2e files that run at the same time (and next to the unit files) never share data,
 * while the files of one slot run one after another on the same gateway, as they always did.
 *
 * A new e2e file follows this pattern (see bank-accounts.test.ts):
 *
 *   const baseUrl = gatewayUrl();                      // this worker's gateway (not a server of your own)
 *   const ui = useSignedInPage(baseUrl, DESKTOP);      // one page for the file, already signed in
 *   it('…', async () => { await ui.page.goto(`${baseUrl}${P.orders}`); … ui.get('/api/…') … });
 *
 * - Start no gateway and launch no browser in a test file: use gatewayUrl() and useSignedInPage(), or
 *   sharedBrowser() for pages of your own (sign-in tests, other windows); close what you open.
 * - Reuse the file's page across its tests (each test starts with a page.goto) instead of new pages.
 * - Leave the demo data usable for the files after yours on the same gateway: create what you change
 *   (a new order, a new person) or pick rows by what they are, never by position in the seed.
 * - Extend an existing file when the flow fits it: every file costs a connection and a reload of its page.
 */
import { afterAll, beforeAll, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type ConsoleMessage, type Download, type Page } from 'playwright-core';
import type { SignedInState } from './global-setup';
import { DESKTOP, signInToFirstBusiness } from './sign-in';

export { DEMO, DEMO_BUSINESS, DESKTOP, businessName, chooseBusiness, signIn, signInToFirstBusiness } from './sign-in';

export const P = {
  login: '/login/index',
  home: '/mine/home',
  roster: '/main/online-insurance/form-insurance/upload-insurance-confidence',
  historyForms: '/main/online-insurance/form-insurance/query-history-form',
  orders: '/main/online-insurance/cost-manage/order-manage',
  bank: '/account/account-center/account-center/bank-manage',
} as const;

/** This file's worker slot, 1…n (vitest's VITEST_POOL_ID). */
const slot = (): number => Math.max(1, Number(process.env.VITEST_POOL_ID ?? '1'));

/** The gateway of this file's worker slot (origin, no trailing slash): no other file uses it meanwhile. */
export function gatewayUrl(): string {
  const urls = inject('baseUrls');
  return urls[(slot() - 1) % urls.length];
}

/** The shared headless Chromium (started by the global setup); close() only disconnects this file. */
export function sharedBrowser(): Promise<Browser> {
  return chromium.connect(inject('chromiumWs'));
}

export interface SignedInPage {
  /** The page, signed in to the demo business (from beforeAll on). */
  page: Page;
  /** The headers the console sends to the gateway. */
  auth: Record<string, string>;
  /** GET from the gateway as the console does; the response's `data`. */
  get<T>(path: string): Promise<T>;
}

/**
 * The page of this worker's gateway, kept by the worker from one file to the next (the e2e files of a
 * worker share its modules, vite.config.ts): made once, signed in with the session the global setup
 * made. A new context per file cost Chromium about 2.5 s of CPU each time (the context, its storage
 * state and a cold cache: every script parsed and compiled again); a file now starts on a warm cache.
 */
let workerPage: Promise<{ page: Page; origin: string }> | undefined;

/** Options a file may give and still use the worker's page: a viewport, downloads (always accepted). */
function fitsWorkerPage(options: BrowserContextOptions): boolean {
  const { viewport, acceptDownloads, locale, reducedMotion, ...rest } = options;
  return Object.keys(rest).length === 0 && acceptDownloads !== false && (locale ?? DESKTOP.locale) === DESKTOP.locale && (reducedMotion ?? DESKTOP.reducedMotion) === DESKTOP.reducedMotion && viewport !== null;
}

/**
 * The worker's page, as a new context would give it: no listeners of an earlier file, the console
 * unloaded, the signed-in local storage (and nothing else) for `origin`, the file's viewport.
 */
async function freshWorkerPage(origin: string, session: SignedInState, options: BrowserContextOptions): Promise<Page> {
  const state = JSON.parse(session.storageState) as Awaited<ReturnType<BrowserContext['storageState']>>;
  const open = () =>
    sharedBrowser().then(async (browser) => {
      const context = await browser.newContext({ ...DESKTOP, storageState: state });
      return { page: await context.newPage(), origin };
    });
  workerPage ??= open();
  // A page an earlier file closed (or that crashed) is made again rather than failing every file after it.
  if ((await workerPage).page.isClosed()) workerPage = open();
  const { page, origin: own } = await workerPage;
  if (own !== origin) throw new Error(`the worker's page is for ${own}, not ${origin}`);
  page.removeAllListeners();
  // A static file of the origin (no console code runs) where its storage can be reset before the file's first page.
  await page.goto(`${origin}/favicon.svg`);
  await page.context().clearCookies();
  if (state.cookies.length) await page.context().addCookies(state.cookies);
  const items = state.origins.find((o) => o.origin === origin)?.localStorage ?? [];
  await page.evaluate((entries) => {
    localStorage.clear();
    sessionStorage.clear();
    for (const { name, value } of entries) localStorage.setItem(name, value);
  }, items);
  await page.setViewportSize(options.viewport ?? DESKTOP.viewport!);
  return page;
}

/**
 * For a test file (or describe block): a page signed in to the demo business before its tests. On this
 * worker's gateway with the usual options (DESKTOP, any viewport) it is the worker's page, reset for the
 * file (freshWorkerPage) and left open after it; otherwise a page in a new context made with `options`,
 * signed in with the gateway's session the global setup made (or through the sign-in page for any other
 * origin) and closed after the tests.
 */
export function useSignedInPage(origin: string, options: BrowserContextOptions = {}): SignedInPage {
  let browser: Browser | undefined;
  const ui: SignedInPage = {
    page: undefined as unknown as Page,
    auth: {},
    async get<T>(path: string): Promise<T> {
      const r = await fetch(`${origin}${path}`, { headers: ui.auth });
      return ((await r.json()) as { data: T }).data;
    },
  };
  beforeAll(async () => {
    const at = inject('baseUrls').indexOf(origin);
    const session = at >= 0 ? inject('signedIn')[at] : undefined;
    if (session && origin === gatewayUrl() && fitsWorkerPage(options)) {
      ui.page = await freshWorkerPage(origin, session, options);
      ui.auth = session.auth;
      return;
    }
    browser = await sharedBrowser();
    const context = await browser.newContext({ ...options, ...(session ? { storageState: JSON.parse(session.storageState) } : {}) });
    ui.page = await context.newPage();
    ui.auth = session ? session.auth : await signInToFirstBusiness(ui.page, origin);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return ui;
}

/** A download's bytes (the shared browser is connected remotely, so download.path() is not available). */
export async function downloadBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The page URL's query string as an object (list state lives there). */
export const urlQuery = (page: Page): Record<string, string> => Object.fromEntries(new URL(page.url()).searchParams);

/** Waits for a list's rows after a navigation or a change, with no spinner left; `rows` selects the rows to wait for. */
export async function listRowsLoaded(page: Page, rows = '.ant-table-row'): Promise<void> {
  await page.locator(rows).first().waitFor({ timeout: 20000 });
  await page.waitForFunction(() => !document.querySelector('.ant-table .ant-spin-spinning'));
}

/**
 * Opens the header's account menu and clicks its item `label` (切换为顶部导航, 退出登录, …): the newest
 * visible one, since the menu of a layout just left can still be in the page, closing, with the same items.
 */
export async function pickFromAccountMenu(page: Page, label: string): Promise<void> {
  await page.getByTestId('account-menu').click();
  await page.locator('.ant-dropdown-menu-item:visible', { hasText: label }).last().click();
}

/**
 * Opens `url` (absolute) for a test about a page: inside the console when `page` already shows it on that
 * origin (openInApp), else, or when `url` is the page already shown (to load it again), with page.goto.
 * So a test still runs alone (its first page is a load) and a file pays one load, not one per test.
 */
export async function openPage(page: Page, url: string): Promise<void> {
  const to = new URL(url);
  const here = new URL(page.url());
  const same = here.origin === to.origin && here.pathname === to.pathname && here.search === to.search;
  const shown = !same && here.origin === to.origin && (await page.evaluate(() => (document.getElementById('root')?.childElementCount ?? 0) > 0).catch(() => false));
  if (shown) await openInApp(page, to.pathname + to.search);
  else await page.goto(url);
}

/**
 * Opens `path` (from the origin, with its query) in the console already loaded in `page`, the way its
 * menu and links do: a client-side navigation (the router follows history), scrolled to the top. For
 * tests about a page, not about its cold start: a page.goto starts the console's code again (about a
 * second of CPU on the 2-core machines), while deep links are opened with page.goto by routes.test.ts.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.scrollTo(0, 0);
    history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  const want = new URL(path, page.url());
  await page.waitForURL((url) => url.pathname === want.pathname && url.search === want.search);
}

/**
 * Records into `into` what a page, or every page of a context, logs as an error and every error it leaves
 * uncaught, one line each (`console: text @ url`, `pageerror: error`): a test expects the list empty.
 */
export function recordErrors(target: Page | BrowserContext, into: string[]): void {
  const onConsole = (m: ConsoleMessage) => {
    if (m.type() === 'error') into.push(`console: ${m.text()} @ ${m.location()?.url ?? ''}`);
  };
  if ('goto' in target) target.on('pageerror', (e) => into.push(`pageerror: ${String(e)}`)).on('console', onConsole);
  else target.on('weberror', (e) => into.push(`pageerror: ${String(e.error())}`)).on('console', onConsole);
}
