/**
 * Every endpoint a page calls on load, under load. The pages are the signed-in routes of
 * schemas/routes.json (a route with an :id gets the first link to it found on the other pages); the calls
 * are what the console itself requests when each page is opened in Chromium (its own build, served by the
 * gateway under test, signed in to the business the bench seeded), checked against the calls the page
 * schemas declare (a table's or detail's `api`, a column's or field's `optionsApi`): a declared call a page
 * does not make is noted. Each distinct GET is then sent by 10 concurrent users; figure: p99 ≤ 100 ms on
 * PostgreSQL (the workbench's target in issue 22: 10 users, 1M orders, 100k persons), ≤ 200 ms on PGlite
 * (the list target there).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { flattenRoutes } from '../src/schema/routes.ts';
import { loadSchemaFiles } from '../src/schema/load-node.ts';
import { resolveDetail, resolveForm, resolveTable } from '../src/schema/resolve.ts';
import { buildEntityRegistry } from '../src/shared/entity/registry.ts';
import type { DetailSchemaFile, FormSchemaFile, RouteNode, RoutePage, RoutesFile, SchemaRef, TableSchemaFile } from '../src/schema/types.ts';
import { BUSINESS, type Gateway } from './lib/gateway.ts';
import { launchChromium, signInTo } from './lib/chromium.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { Report } from './lib/report.ts';
import { settle } from './lib/settle.ts';
import { fmtCount, summarize } from './lib/stats.ts';

export const ENDPOINT_TARGET_MS = { postgres: 100, pglite: 200 } as const;

/**
 * The calls a route's page schemas declare (paths; `:id` where the route has one): all of them, and the
 * lists among them (a table's `api`), one of which the page asks for on load.
 */
export function declaredCalls(repoRoot: string): Map<string, { all: string[]; lists: string[] }> {
  const { files } = loadSchemaFiles(repoRoot);
  const reg = buildEntityRegistry(files);
  const file = <T>(kind: string, name: string) => files[`schemas/${kind}s/${name}.json`] as T | undefined;
  const listsOf = (ref: SchemaRef): string[] => {
    const f = ref.kind === 'table' ? file<TableSchemaFile>('table', ref.schema) : undefined;
    return f ? [resolveTable(f, reg).api] : [];
  };
  const ofRef = (ref: SchemaRef): string[] => {
    if (ref.kind === 'table') {
      const f = file<TableSchemaFile>('table', ref.schema);
      if (!f) return [];
      const t = resolveTable(f, reg);
      return [t.api, ...t.columns.flatMap((c) => (c.optionsApi ? [c.optionsApi] : []))];
    }
    if (ref.kind === 'detail') {
      const f = file<DetailSchemaFile>('detail', ref.schema);
      return f ? [resolveDetail(f, reg).api ?? ''].filter(Boolean) : [];
    }
    const f = file<FormSchemaFile>('form', ref.schema);
    return f ? resolveForm(f, reg).fields.flatMap((x) => (x.optionsApi ? [x.optionsApi] : [])) : [];
  };
  const refs = (p: RoutePage): SchemaRef[] => (p.kind === 'custom' ? (p.schemas ?? []) : [p]);
  const routes = (files['schemas/routes.json'] as RoutesFile).routes;
  return new Map(
    signedInRoutes(routes).map((r) => [r.path, { all: [...new Set(refs(r.page!).flatMap(ofRef))], lists: [...new Set(refs(r.page!).flatMap(listsOf))] }]),
  );
}

/** Routes with a page outside the public layout, in the order of routes.json. */
export function signedInRoutes(routes: RouteNode[]): RouteNode[] {
  const layoutOf = new Map<string, string | undefined>();
  const walk = (rs: RouteNode[], layout?: string) => {
    for (const r of rs) {
      layoutOf.set(r.path, r.layout ?? layout);
      walk(r.childRoutes ?? [], r.layout ?? layout);
    }
  };
  walk(routes);
  return flattenRoutes(routes).filter((r) => r.page && layoutOf.get(r.path) !== 'basic');
}

export interface PageCalls {
  /** GET path + query → the routes that call it on load. */
  calls: Map<string, Set<string>>;
  /** Calls other than GET made on load (not load-tested). */
  other: string[];
  /** Routes not opened (an :id route without a link to it). */
  skipped: string[];
  /** Declared calls (schemas) no page made. */
  unused: string[];
}

const pathPattern = (path: string) => new RegExp(`^${path.replace(/\/:[^/]+\?/g, '(?:/[^/?#]+)?').replace(/:[^/]+/g, '[^/?#]+')}$`);

/** Opens every signed-in page once in Chromium and records the API calls it makes until it is shown. */
export async function observePageCalls(gw: Gateway, repoRoot: string): Promise<PageCalls> {
  const routesFile = (loadSchemaFiles(repoRoot).files['schemas/routes.json'] as RoutesFile);
  const routes = signedInRoutes(routesFile.routes);
  const declared = declaredCalls(repoRoot);
  const out: PageCalls = { calls: new Map(), other: [], skipped: [], unused: [] };
  const browser = await launchChromium();
  try {
    const ctx = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
    await signInTo(await ctx.newPage(), gw.origin, BUSINESS);
    const links = new Set<string>();
    // A route with a required :param is opened at the first link to it found on the other pages.
    const withParams = routes.filter((r) => r.path.replace(/\/:[^/]+\?/g, '').includes(':'));
    const plain = routes.filter((r) => !withParams.includes(r));
    const visit = async (route: RouteNode, path: string) => {
      const seen = await openAndRecord(ctx, gw.origin, path, (declared.get(route.path)?.lists ?? []).map((l) => pathPattern(l.split('?')[0])));
      for (const l of seen.links) links.add(l);
      for (const c of seen.calls) {
        if (!c.startsWith('GET ')) out.other.push(`${c} (${route.path})`);
        else (out.calls.get(c.slice(4)) ?? out.calls.set(c.slice(4), new Set()).get(c.slice(4))!).add(route.path);
      }
    };
    for (const r of plain) await visit(r, r.path.replace(/\/:[^/]+\?/g, ''));
    for (const r of withParams) {
      const re = pathPattern(r.path);
      const link = [...links].find((l) => re.test(l));
      if (link) await visit(r, link);
      else out.skipped.push(r.path);
    }
    await ctx.close();
  } finally {
    await browser.close();
  }
  const calledPaths = [...out.calls.keys()].map((u) => u.split('?')[0]);
  for (const [route, { all }] of declared) {
    for (const p of all) {
      const re = pathPattern(p.split('?')[0]);
      if (!calledPaths.some((c) => re.test(c))) out.unused.push(`${p} (${route})`);
    }
  }
  return out;
}

/**
 * Opens `path` in a fresh tab; the API calls it makes until it is shown (its title is there, nothing
 * spins), has asked for one of its declared `lists` (when it has any: a list asks for its rows only once
 * its code has loaded and its search form is set up, which on a busy machine can take seconds without
 * a request) and no request (code or API) has started or ended for 1.5 s; and the links on it.
 */
async function openAndRecord(ctx: BrowserContext, origin: string, path: string, lists: RegExp[]): Promise<{ calls: string[]; links: string[] }> {
  const page: Page = await ctx.newPage();
  const calls: string[] = [];
  let lastRequest = Date.now();
  let listAsked = lists.length === 0;
  const isApi = (url: string) => {
    const u = new URL(url);
    return u.origin === origin && u.pathname.startsWith('/api/') ? u : undefined;
  };
  page.on('request', (req) => {
    lastRequest = Date.now();
    const u = isApi(req.url());
    if (!u) return;
    calls.push(`${req.method()} ${u.pathname}${u.search}`);
    if (lists.some((re) => re.test(u.pathname))) listAsked = true;
  });
  page.on('requestfinished', () => (lastRequest = Date.now()));
  try {
    await page.goto(origin + path, { waitUntil: 'load', timeout: 60_000 });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const shown = await page.evaluate(() => !!document.querySelector('[data-testid="page-title"]') && !document.querySelector('.ant-spin-spinning, .ant-skeleton'));
      if ((shown && listAsked && Date.now() - lastRequest >= 1500) || Date.now() > deadline) break;
      await page.waitForTimeout(250);
    }
    const links = await page.evaluate(() => [...document.querySelectorAll<HTMLAnchorElement>('a[href^="/"]')].map((a) => a.getAttribute('href')!.split(/[?#]/)[0]));
    return { calls: [...new Set(calls)], links };
  } finally {
    await page.close();
  }
}

export interface EndpointOptions {
  concurrency: number;
  requests: number;
  durationMs: number;
}

/**
 * `url` (path and query) sent by `opts.concurrency` users after 3 unrecorded requests each, until
 * `opts.requests` answered or `opts.durationMs` passed; then waits for the gateway to drain.
 */
export async function loadGet(gw: Gateway, url: string, opts: EndpointOptions): Promise<LoadResult> {
  const headers = gw.headers();
  const load = await runLoad({
    concurrency: opts.concurrency,
    count: opts.requests,
    warmup: 3 * opts.concurrency,
    durationMs: opts.durationMs,
    requestTimeoutMs: 60_000,
    next: () => ({ url: gw.origin + url, headers }),
  });
  await gw.drain();
  return load;
}

/** Load-tests every GET a page calls on load (observePageCalls) and adds a row per call. */
export async function runEndpoints(gw: Gateway, driver: 'postgres' | 'pglite', size: number, report: Report, found: PageCalls, opts: EndpointOptions): Promise<void> {
  const label = `${driver === 'postgres' ? 'PostgreSQL' : 'PGlite'} ${fmtCount(size)}`;
  const target = ENDPOINT_TARGET_MS[driver];
  const quiet = await settle();
  console.log(`    machine quiet after ${(quiet.waitedMs / 1000).toFixed(1)} s (${Math.round(quiet.idle * 100)} % idle)`);
  for (const [url, routes] of [...found.calls].sort(([a], [b]) => a.localeCompare(b))) {
    const load = await loadGet(gw, url, opts);
    const s = summarize(load.latencies);
    const incomplete = load.timedOut || load.errors > 0;
    report.add({
      section: 'endpoints',
      figure: `${label} page call GET ${url} p99`,
      value: s.n ? s.p99 : 'no answers',
      unit: 'ms',
      target: `≤ ${target} ms`,
      pass: !incomplete && s.n > 0 && s.p99 <= target,
      note: [
        `p50 ${Math.round(s.p50)} ms, n=${s.n}`,
        load.timedOut ? `duration cap: ${load.issued} issued` : '',
        load.errors ? `${load.errors} errors: ${load.firstError?.slice(0, 80)}` : '',
        `on ${[...routes].join(', ')}`,
      ]
        .filter(Boolean)
        .join('; '),
    });
  }
  report.note(`${label}: ${found.calls.size} GET calls on page load, from ${new Set([...found.calls.values()].flatMap((s) => [...s])).size} pages`);
  if (found.skipped.length) report.note(`${label}: pages not opened (no link to them found): ${found.skipped.join(', ')}`);
  if (found.other.length) report.note(`${label}: other calls on page load (not load-tested): ${[...new Set(found.other)].join(', ')}`);
  if (found.unused.length) report.note(`${label}: declared by page schemas but not called on load: ${found.unused.join(', ')}`);
}
