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
