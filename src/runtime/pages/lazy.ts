import { lazyWithRetry as lazy } from '../errors';

// Each page kind is its own chunk, loaded the first time a page of that kind opens.
export const LazyTablePage = lazy(() => import('./TablePage').then((m) => ({ default: m.TablePage })));
export const LazyFormPage = lazy(() => import('./FormPage').then((m) => ({ default: m.FormPage })));
export const LazyDetailPage = lazy(() => import('./DetailPage').then((m) => ({ default: m.DetailPage })));
// The public pages (sign-in, set-password, agreement): the entry renders them; sign-out preloads them.
export const LazyPublicPage = lazy(() => import('./PublicPage').then((m) => ({ default: m.PublicPage })));
