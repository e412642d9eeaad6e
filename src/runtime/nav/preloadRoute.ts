import { matchPath } from 'react-router-dom';
import type { RouteNode } from '../../schema/types';
import { routesFile } from '../../schema/registry';
import { flattenRoutes } from '../../schema/routes';
import { lazyWithRetry as lazy } from '../errors';

// The signed-in frame (ProLayout, header menus, breadcrumb) is not part of the sign-in page's code: each
// layout loads in its own chunk, together with the page view it renders, the first time it is shown.
const signedInView = () => import('./RouteView');
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

/**
 * Starts loading all the code a signed-in path shows, at once: its layout (the menu layout when the
 * path leaves the workbench's) and its page (preloadPage), rather than one after the other as each
 * renders and suspends. A path with a query is matched on its pathname; an unknown path loads nothing.
 */
export function preloadRoute(path: string): void {
  const pathname = path.split(/[?#]/)[0];
  const hit = pageRoutes.find((r) => matchPath(r.route.path, pathname));
  if (!hit) return;
  if (hit.layout) void LAYOUTS[hit.layout].preload();
  void signedInView().then((m) => m.preloadPage(hit.route.page!), () => undefined);
}

/** One preload per distinct path among `paths` (empty ones skipped), for loading ahead when idle (prefetch.ts). */
export function routePreloads(paths: ReadonlyArray<string | undefined>): Array<() => Promise<void>> {
  return [...new Set(paths.filter((p): p is string => !!p))].map((path) => async () => preloadRoute(path));
}
