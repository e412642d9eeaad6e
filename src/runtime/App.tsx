import { Suspense, useEffect, useRef, useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useHref, useLocation } from 'react-router-dom';
import type { RouteNode } from '../schema/types';
import { routesFile, flattenRoutes } from '../schema/registry';
import { configureAuth } from '../services/request';
import type { RootStore } from '../stores/root';
import { PersistLayout } from './layouts/PersistLayout';
import { BasicLayout } from './layouts/BasicLayout';
import { AccessLayout } from './layouts/AccessLayout';
import { Loading } from './layouts/Loading';
import { lazyWithRetry as lazy } from './errors';
import { LazyPublicPage } from './pages/lazy';
// Each layout loads in its own chunk, with the page view it renders, the first time it is shown.
import { LazyMenuLayout as MenuLayout, LazyMineLayout as MineLayout, LazyRouteView as RouteView, preloadRoute, preloadRouteData } from './nav/preloadRoute';
import { OldPathRedirect, SectionRedirect } from './nav/Redirects';
import { groupRoutes } from './nav/tree';
import { observer } from 'mobx-react-lite';
import { useStores } from './context';
import { useDocumentTitle } from './nav/useDocumentTitle';
import { consolePathOf } from './nav/consoleLink';

// The public pages (sign-in, set-password, agreement: antd Form and Input) and the 404 page (antd Result)
// load in their own chunks too, so a signed-in page's first load carries neither.
const PublicPage = LazyPublicPage;
const NotFound = lazy(() => import('./nav/NotFound').then((m) => ({ default: m.NotFound })));
// The schema studio exists only under the dev server (`npm run dev`): a production build has no such page.
const StudioPage = import.meta.env.DEV ? lazy(() => import('./studio/StudioPage').then((m) => ({ default: m.StudioPage }))) : undefined;

function PublicRoute({ route }: { route: RouteNode }) {
  useDocumentTitle(route.title);
  return (
    <Suspense fallback={<Loading />}>
      <PublicPage route={route} />
    </Suspense>
  );
}

/**
 * Starts loading the code of the signed-in page a path shows as soon as it is opened, together with its
 * layout's, rather than once the layout has loaded and rendered (preloadRoute). The page's data starts
 * with it (preloadRouteData): when the console opens on the path, when an in-app link is pressed
 * (pointerdown, then click: before the router renders the new page and unmounts the old one), and on
 * Back and Forward (popstate, before the router's own listener renders).
 */
const PagePreload = observer(function PagePreload() {
  const { pathname, search } = useLocation();
  const base = useHref('/').replace(/\/$/, '');
  const { user } = useStores();
  // Signed out, or without a business: AccessLayout sends the visitor to sign-in instead.
  const signedIn = user.isLoggedIn && !!user.currentBusiness;
  // With its query: a list's first page follows the URL's page, sort and filters.
  const current = useRef(pathname + search);
  current.current = pathname + search;
  useEffect(() => {
    if (signedIn) preloadRoute(pathname);
  }, [pathname, signedIn]);
  useEffect(() => {
    if (!signedIn) return undefined;
    preloadRouteData(current.current);
    // Only for another page: within one (a row's drawer, ?id=, opened by a link or closed by Back) the
    // page shown stays, and so do its rows.
    const preloadPage = (path: string, query: string) => {
      if (path === current.current.split('?')[0]) return;
      preloadRoute(path);
      preloadRouteData(`${path}${query}`);
    };
    const onPress = (e: MouseEvent) => {
      const a = e.target instanceof Element ? e.target.closest<HTMLAnchorElement>('a[href]') : null;
      const path = consolePathOf(e, a, base);
      if (path !== undefined) preloadPage(path, a!.search);
    };
    // Back and Forward: the browser has the new URL before the router renders its page.
    const onHistory = () => preloadPage(window.location.pathname.slice(base.length) || '/', window.location.search);
    document.addEventListener('pointerdown', onPress, true);
    document.addEventListener('click', onPress, true);
    window.addEventListener('popstate', onHistory, true);
    return () => {
      document.removeEventListener('pointerdown', onPress, true);
      document.removeEventListener('click', onPress, true);
      window.removeEventListener('popstate', onHistory, true);
    };
  }, [signedIn, base]);
  return null;
});

/** Leaf and group routes of the top-level entries rendered in one layout group. */
function sectionRoutes(layout: 'menu' | 'mine') {
  const tops = routesFile.routes.filter((r) => r.layout === layout);
  return [
    ...flattenRoutes(tops)
      .filter((r) => r.page)
      .map((r) => <Route key={r.path} path={r.path} element={<Suspense fallback={<Loading />}><RouteView route={r} /></Suspense>} />),
    ...groupRoutes(tops).map((g) => <Route key={g.path} path={g.path} element={<SectionRedirect node={g} />} />),
  ];
}

/**
 * The console: persist (rehydration) → basic (providers) → router. Public pages render bare; signed-in
 * pages go through access (sign-in + business) and then the menu or mine layout. Old paths redirect.
 */
export function App({ store, basename }: { store: RootStore; basename: string }) {
  // Set while rendering, before any page's effect sends a request (PagePreload's first ones included).
  useState(() =>
    configureAuth({
      getToken: () => store.user.token,
      getRefreshToken: () => store.user.refreshToken,
      getCompanyId: () => store.user.businessInfo.businessId,
      onTokens: (t, r) => store.user.setTokens(t, r),
      onAuthLost: () => store.logout(),
    }),
  );
  const publicRoutes = flattenRoutes(routesFile.routes).filter((r) => r.page && r.layout === 'basic');
  return (
    <PersistLayout store={store}>
      <BasicLayout>
        <BrowserRouter basename={basename}>
          <Routes>
            {publicRoutes.map((r) => (
              <Route key={r.path} path={r.path} element={<PublicRoute route={r} />} />
            ))}
            {Object.entries(routesFile.redirects ?? {}).map(([from, to]) => (
              <Route key={from} path={from} element={<OldPathRedirect to={to} />} />
            ))}
            <Route path="/" element={<Navigate to={routesFile.defaultPath} replace />} />
            <Route
              element={
                <>
                  <PagePreload />
                  <AccessLayout />
                </>
              }
            >
              <Route element={<Suspense fallback={<Loading />}><MineLayout /></Suspense>}>{sectionRoutes('mine')}</Route>
              <Route element={<Suspense fallback={<Loading />}><MenuLayout /></Suspense>}>{sectionRoutes('menu')}</Route>
              {StudioPage && <Route path="/studio" element={<Suspense fallback={<Loading />}><StudioPage /></Suspense>} />}
            </Route>
            <Route path="*" element={<Suspense fallback={<Loading />}><NotFound /></Suspense>} />
          </Routes>
        </BrowserRouter>
      </BasicLayout>
    </PersistLayout>
  );
}
