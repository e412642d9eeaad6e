import { Suspense } from 'react';
import { useLocation } from 'react-router-dom';
import { observer } from 'mobx-react-lite';
import type { RouteNode } from '../../schema/types';
import { useStores } from '../context';
import { SchemaPage } from '../pages/SchemaPage';
import { RouteGuard } from '../layouts/AccessLayout';
import { ErrorBoundary } from '../errors';
import { Loading } from '../layouts/Loading';
import { PageHeader } from './PageHeader';
import { useDocumentTitle } from './useDocumentTitle';
import { RowLinksProvider } from '../table/ListLink';

export { preloadPage } from '../pages/SchemaPage';

/**
 * One signed-in page: tab title, page header (breadcrumb + title), access check, then the page, lazily
 * loaded. Switching the business remounts the page so it reloads its data.
 */
export const RouteView = observer(function RouteView({ route }: { route: RouteNode }) {
  const { user } = useStores();
  const { pathname } = useLocation();
  useDocumentTitle(route.title);
  return (
    <>
      <PageHeader title={route.title} />
      <RouteGuard route={route}>
        <ErrorBoundary key={`${pathname}|${user.businessInfo.businessId}`}>
          <Suspense fallback={<Loading />}>
            <RowLinksProvider>
              <SchemaPage page={route.page!} />
            </RowLinksProvider>
          </Suspense>
        </ErrorBoundary>
      </RouteGuard>
    </>
  );
});
