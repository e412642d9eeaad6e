import { lazyWithRetry as lazy } from '../../errors';
import { LazyDetailPage } from '../lazy';

/**
 * Custom page components by the name routes.json uses (`page: { kind: 'custom', component }`).
 * Each loads lazily, in its own chunk, the first time its route opens (a chunk that fails or hangs for
 * 120 s shows the retry screen of the page's error boundary).
 */
export const CUSTOM_PAGES: Record<string, ReturnType<typeof lazy>> = {
  Workbench: lazy(() => import('./Workbench').then((m) => ({ default: m.Workbench }))),
  AccountCenter: lazy(() => import('./AccountCenter').then((m) => ({ default: m.AccountCenter }))),
  ClaimNotice: lazy(() => import('./ClaimNotice').then((m) => ({ default: m.ClaimNotice }))),
  HistoryFormDetail: lazy(() => import('./HistoryFormDetail').then((m) => ({ default: m.HistoryFormDetail }))),
  InvoiceDetail: lazy(() => import('./InvoiceDetail').then((m) => ({ default: m.InvoiceDetail }))),
  InvoiceApplyPage: lazy(() => import('./InvoiceApplyPage').then((m) => ({ default: m.InvoiceApplyPage }))),
  RefundApplyPage: lazy(() => import('./RefundApplyPage').then((m) => ({ default: m.RefundApplyPage }))),
  InvoiceManage: lazy(() => import('./InvoiceManage').then((m) => ({ default: m.InvoiceManage }))),
  InsurePersonManage: lazy(() => import('./InsurePersonManage').then((m) => ({ default: m.InsurePersonManage }))),
  InsuredRecord: lazy(() => import('./InsuredRecord').then((m) => ({ default: m.InsuredRecord }))),
  OrderManage: lazy(() => import('./order/OrderManage').then((m) => ({ default: m.OrderManage }))),
  // The order detail renders a DetailPage: both chunks load at once, not one after the other.
  OrderDetail: lazy(() => Promise.all([import('./order/OrderDetail'), LazyDetailPage.preload()]).then(([m]) => ({ default: m.OrderDetail }))),
  UploadInsurance: lazy(() => import('./UploadInsurance').then((m) => ({ default: m.UploadInsurance }))),
  ClaimApply: lazy(() => import('./ClaimApply').then((m) => ({ default: m.ClaimApply }))),
};
