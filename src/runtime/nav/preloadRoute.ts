import { matchPath } from 'react-router-dom';
import type { RouteNode } from '../../schema/types';
import { getDetail, getTable, routesFile } from '../../schema/registry';
import { fillPath, flattenRoutes, templateParams } from '../../schema/routes';
import { preloadGet } from '../../services/request';
import { CUSTOM_PAGE_GETS, CUSTOM_PAGE_LISTS } from '../pages/custom/pageData';
import { firstLoadQuery } from '../table/firstLoad';
import { lazyWithRetry as lazy } from '../errors';

// The signed-in frame (menu layout, header menus, breadcrumb) is not part of the sign-in page's code: each
// layout loads in its own chunk, together with the page view it renders, the first time it is shown.
let view: typeof import('./RouteView') | undefined;
const signedInView = () => import('./RouteView').then((m) => (view = m));
export const LazyMineLayout = lazy(() => Promise.all([import('../layouts/MineLayout'), signedInView()]).then(([m]) => ({ default: m.MineLayout })));
export const LazyMenuLayout = lazy(() => Promise.all([import('../layouts/MenuLayout'), signedInView()]).then(([m]) => ({ default: m.MenuLayout })));
export const LazyRouteView = lazy(() => signedInView().then((m) => ({ default: m.RouteView })));

const LAYOUTS = { menu: LazyMenuLayout, mine: LazyMineLayout } as const;

/** Every signed-in page route with the layout its top-level section renders in. */
const pageRoutes: Array<{ route: RouteNode; layout?: keyof typeof LAYOUTS }> = routesFile.routes.flatMap((top) =>
  flattenRoutes([top])
    .filter((r) => r.page)
    .map((route) => ({ route, layout: top.layout === 'menu' || top.layout === 'mine' ? top.layout : undefined })),
);

/** The page route a signed-in path shows, with its params (a query or hash is ignored); none for an unknown path. */
function pageRouteOf(path: string) {
  const pathname = path.split(/[?#]/)[0];
  for (const r of pageRoutes) {
    const match = matchPath(r.route.path, pathname);
    if (match) return { ...r, page: r.route.page!, params: match.params };
  }
  return undefined;
}

/**
 * Starts loading all the code a signed-in path shows, at once: its layout (the menu layout when the
 * path leaves the workbench's) and its page (preloadPage), rather than one after the other as each
 * renders and suspends. A path with a query is matched on its pathname; an unknown path loads nothing.
 */
export function preloadRoute(path: string): void {
  const hit = pageRouteOf(path);
  if (!hit) return;
  if (hit.layout) void LAYOUTS[hit.layout].preload();
  // Once the signed-in view has loaded, its pages start loading now, in the task of the press that asked.
  if (view) view.preloadPage(hit.page);
  else void signedInView().then((m) => m.preloadPage(hit.page), () => undefined);
}

/**
 * Sends the GETs the page of a signed-in path sends when it opens: the record of its detail schema (when
 * the path names every parameter of its `api`), the first page of its list (a list route's, or the one a
 * custom page opens with, CUSTOM_PAGE_LISTS; when the path's query names no filter, firstLoadQuery) and a
 * custom page's own (CUSTOM_PAGE_GETS). Called when a link is pressed, on Back and Forward, and when the
 * console starts on a path, so the answer is on its way while the page's code loads and renders; the
 * page's own GET then shares it (preloadGet).
 */
export function preloadRouteData(path: string): void {
  const hit = pageRouteOf(path);
  if (!hit) return;
  const { page, params } = hit;
  const search = /\?[^#]*/.exec(path)?.[0] ?? '';
  // A custom page shows its list on its first tab (UrlTabs: no ?tab= in the URL).
  const list = page.kind === 'table' ? page.schema : page.kind === 'custom' && !new URLSearchParams(search).has('tab') ? CUSTOM_PAGE_LISTS[page.component] : undefined;
  if (list) {
    const table = getTable(list);
    const query = firstLoadQuery(table, search);
    if (query) preloadGet(table.api, query);
  }
  const details = page.kind === 'detail' ? [page.schema] : page.kind === 'custom' ? (page.schemas ?? []).filter((s) => s.kind === 'detail').map((s) => s.schema) : [];
  const urls = details.flatMap((d) => {
    const api = getDetail(d).api;
    return api && templateParams(api).every((n) => params[n]) ? [fillPath(api, params)] : [];
  });
  if (page.kind === 'custom') urls.push(...(CUSTOM_PAGE_GETS[page.component] ?? []));
  for (const url of new Set(urls)) preloadGet(url);
}

/** One preload per distinct path among `paths` (empty ones skipped), for loading ahead when idle (prefetch.ts). */
export function routePreloads(paths: ReadonlyArray<string | undefined>): Array<() => Promise<void>> {
  return [...new Set(paths.filter((p): p is string => !!p))].map((path) => async () => preloadRoute(path));
}
