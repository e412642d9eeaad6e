/**
 * The routes of the specification as the e2e tests open them: one list shared by routes.test.ts,
 * a11y.test.ts and screenshots.test.ts.
 */
export const M = '/main/online-insurance';
export const FI = `${M}/form-insurance`;
export const CM = `${M}/cost-manage`;
export const PM = '/service/service-center/pay-manage';
export const AC = '/account/account-center/account-center';

/** Content that shows a page has really loaded (rows, form items, descriptions, statistics, alerts). */
export const CONTENT =
  '.ant-table-row, .ant-formily-item, .ant-descriptions, .ant-statistic, [data-testid="claim-notice-body"], [role="alert"]';

/** [path, title] of the routes that need no sign-in. */
export const PUBLIC_ROUTES: ReadonlyArray<readonly [string, string]> = [
  ['/login/index', '登录'],
  ['/login/settingPassword', '设置密码'],
  ['/agreement/service', '服务协议'],
];

/** First id of a list of the gateway (for detail routes). */
export async function firstId(baseUrl: string, auth: Record<string, string>, resource: string): Promise<number> {
  const r = await fetch(`${baseUrl}/api/${resource}?current=1&pageSize=1`, { headers: auth });
  const b = (await r.json()) as { data: { list: Array<{ id: number }> } };
  if (!b.data.list[0]) throw new Error(`no ${resource} in the demo data`);
  return b.data.list[0].id;
}

/** [path, title, selector of its real content] of every signed-in page route, detail ids from the demo data. */
export async function signedInRoutes(baseUrl: string, auth: Record<string, string>): Promise<Array<[string, string, string]>> {
  const batch = await firstId(baseUrl, auth, 'insure-batches');
  const order = await firstId(baseUrl, auth, 'orders');
  const invoice = await firstId(baseUrl, auth, 'invoices');
  return [
    ['/mine/home', '工作台', '.ant-statistic'],
    [`${FI}/upload-insurance-confidence`, '上传投保信息', '[data-testid="roster-upload"]'],
    [`${FI}/query-history-form`, '历史表单查询', '.ant-table-row'],
    [`${FI}/query-history-form/${batch}`, '历史表单详情', '.ant-table-row'],
    [`${M}/attendance-insurance/insure-person-manage`, '参保人员管理', '.ant-table-row'],
    [`${M}/insured-record`, '投保记录', '.ant-table-row'],
    [`${CM}/order-manage`, '订单管理', '.ant-table-row'],
    [`${CM}/order-manage/${order}`, '订单详情', '.ant-descriptions'],
    [`${CM}/invoice-manage`, '发票管理', '.ant-table-row'],
    [`${CM}/invoice-manage/detail/${invoice}`, '发票详情', '.ant-descriptions'],
    [`${CM}/invoice-manage/apply/${order}`, '申请开票', '.ant-formily-item'],
    [`${CM}/invoice-manage/apply-refund/${invoice}`, '申请退票', '.ant-formily-item'],
    [`${PM}/pay-apply`, '理赔申请', '.ant-table-row'],
    [`${PM}/pay-apply-send`, '发起申请', '.ant-formily-item'],
    [`${PM}/pay-notice`, '理赔须知', 'text=申请时效'],
    [`${AC}/account-center`, '账户中心', '[data-testid="account-info"]'],
    [`${AC}/bank-manage`, '银行账户管理', '.ant-table-row'],
    [`${AC}/basic-setting`, '基础设置', '.ant-formily-item'],
  ];
}

/** A file-name slug of a path: '/main/online-insurance/x' → 'main-online-insurance-x'; '/' → 'root'. */
export function routeSlug(path: string): string {
  return path.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '') || 'root';
}
