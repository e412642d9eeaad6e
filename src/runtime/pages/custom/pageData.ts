/** What the business owes and its balance (the order pages' banner and pay card). */
export const PAYMENTS_DUE = '/api/payments/due';

/**
 * The GETs a custom page sends when it opens, beyond its route's detail schema (whose `api` preloadRoute
 * derives): named here once, so the page and the link that opens it (preloadRouteData) send the same URLs.
 */
export const CUSTOM_PAGE_GETS: Record<string, readonly string[]> = {
  // 订单管理's banner and 订单详情's pay card.
  OrderManage: [PAYMENTS_DUE],
  OrderDetail: [PAYMENTS_DUE],
};

/**
 * The list a custom page opens with, drawn by TablePage as a list route's is (the table schema's name):
 * its first page goes out with the link that opens the page (preloadRouteData), as a list route's does.
 */
export const CUSTOM_PAGE_LISTS: Record<string, string> = {
  OrderManage: 'orders',
  InsurePersonManage: 'insured-persons',
  InsuredRecord: 'insure-records',
  ClaimApply: 'claims',
};
