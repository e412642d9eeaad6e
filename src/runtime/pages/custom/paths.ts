/** Route paths the custom pages link to (all exist in schemas/routes.json; checked by a unit test). */
const M = '/main/online-insurance';
const CM = `${M}/cost-manage`;
const PM = '/service/service-center/pay-manage';
const AC = '/account/account-center/account-center';

export const PATHS = {
  historyForm: `${M}/form-insurance/query-history-form`,
  insurePersons: `${M}/attendance-insurance/insure-person-manage`,
  insuredRecord: `${M}/insured-record`,
  orders: `${CM}/order-manage`,
  orderDetail: (id: string | number) => `${CM}/order-manage/${encodeURIComponent(String(id))}`,
  invoices: `${CM}/invoice-manage`,
  invoiceDetail: (id: string | number) => `${CM}/invoice-manage/detail/${encodeURIComponent(String(id))}`,
  applyRefund: (id: string | number) => `${CM}/invoice-manage/apply-refund/${encodeURIComponent(String(id))}`,
  claims: `${PM}/pay-apply`,
  accountCenter: `${AC}/account-center`,
} as const;
