import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, clearRequestCache, configureAuth } from '../../src/services/request';
import { preloadRouteData } from '../../src/runtime/nav/preloadRoute';
import { getTable } from '../../src/schema/registry';
import { toQuery } from '../../src/runtime/tableColumns';

// What a pressed link sends ahead of its page (src/runtime/App.tsx PagePreload), over a real HTTP server.
let server: Server;
let base = '';
let seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ code: 0, data: { url: req.url } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen = [];
  clearRequestCache();
  vi.stubGlobal('window', { __APP_CONFIG__: { services: { business: base } } });
  configureAuth({ getToken: () => 't', getRefreshToken: () => 'r', getCompanyId: () => 'B10001', onTokens: () => undefined, onAuthLost: () => undefined });
  return () => vi.unstubAllGlobals();
});
/** Waits until the server has seen `urls` (on a loaded machine the requests take more than a tick to arrive). */
const received = (urls: string[]) => vi.waitFor(() => expect([...seen].sort()).toEqual(urls), { timeout: 5000, interval: 10 });

describe('a page’s data sent when its link is pressed', () => {
  it('an order detail: the order of the path and the pay card’s due; the page’s own GETs then send nothing', async () => {
    preloadRouteData('/main/online-insurance/cost-manage/order-manage/4?from=list');
    await received(['/api/orders/4', '/api/payments/due']);
    expect(await api.get('/api/orders/4')).toEqual({ url: '/api/orders/4' });
    expect(await api.get('/api/payments/due')).toEqual({ url: '/api/payments/due' });
    expect(seen).toHaveLength(2);
  });

  it('the workbench: its numbers; a list whose detail needs a record id: its first page, nothing for the detail', async () => {
    preloadRouteData('/mine/home');
    preloadRouteData('/main/online-insurance/attendance-insurance/insure-person-manage');
    preloadRouteData('/no/such/page');
    await received(['/api/insured-persons?current=1&pageSize=30', '/api/overview/workbench']);
    // Nothing else follows: a request for the detail or the unknown page would arrive in this time too.
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toHaveLength(2);
  });

  it('a list: the first page its table asks for (toQuery of the page and sort in its URL), which the GET of the table then shares', async () => {
    preloadRouteData('/main/online-insurance/cost-manage/order-manage');
    preloadRouteData('/account/account-center/account-center/bank-manage?current=2&pageSize=50&sortField=createdAt&sortOrder=descend');
    await received(['/api/bank-accounts?current=2&pageSize=50&sortField=createdAt&sortOrder=descend', '/api/orders?current=1&pageSize=30', '/api/payments/due']);
    // What TablePage sends when the table mounts on those URLs (ConsoleTable passes the page and page size, and the sort).
    const orders = getTable('orders');
    expect(await api.get(orders.api, toQuery(orders.columns, { current: 1, pageSize: 30 }, {}))).toEqual({ url: '/api/orders?current=1&pageSize=30' });
    const banks = getTable('bank-accounts');
    await api.get(banks.api, toQuery(banks.columns, { current: 2, pageSize: 50 }, { createdAt: 'descend' }));
    expect(seen).toHaveLength(3);
  });

  it('a list whose URL filters it, a custom page on another tab and the business picker: no list preloaded', async () => {
    preloadRouteData('/main/online-insurance/cost-manage/order-manage?payStatus=unpaid');
    preloadRouteData('/main/online-insurance/attendance-insurance/insure-person-manage?tab=attendance');
    preloadRouteData('/account/account-center/account-center/account-center');
    await received(['/api/payments/due']);
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual(['/api/payments/due']);
  });
});
