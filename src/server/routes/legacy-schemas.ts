/**
 * Body schemas of the legacy business writes: shape and field labels only (for the OpenAPI
 * document and to refuse non-objects); the detailed checks stay in the handlers for now.
 */
const s = (title: string) => ({ type: ['string', 'null'], title });
const amount = (title: string) => ({ type: ['number', 'string', 'null'], title });
const rows = {
  type: 'array',
  title: '人员名单',
  items: {
    type: 'object',
    properties: { name: s('姓名'), idCard: s('身份证号'), phone: s('手机号'), jobType: s('工种') },
  },
};

export const LEGACY_BODIES: Record<string, object> = {
  'POST /api/insure/roster': {
    type: 'object',
    properties: { planName: s('保险方案'), startDate: s('起保日期'), fileName: s('文件名'), rows },
  },
  'POST /api/insure/attendance': {
    type: 'object',
    properties: { planName: s('保险方案'), workDate: s('出勤日期'), fileName: s('文件名'), rows },
  },
  'POST /api/invoices': {
    type: 'object',
    properties: {
      title: s('发票抬头'),
      taxNo: s('税号'),
      type: { type: 'string', title: '发票类型', description: 'normal | special' },
      email: s('接收邮箱'),
      orderNos: { type: 'array', title: '订单号', items: { type: 'string' } },
    },
  },
  'POST /api/invoice-refunds': {
    type: 'object',
    properties: { invoiceNo: s('发票号'), amount: amount('退款金额'), reason: s('退款原因') },
  },
  'POST /api/claims': {
    type: 'object',
    properties: {
      personName: s('出险人'),
      idCard: s('身份证号'),
      accidentDate: s('出险日期'),
      accidentType: s('事故类型'),
      description: s('事故经过'),
      amount: amount('预估金额'),
      attachmentIds: { type: ['array', 'null'], title: '理赔材料', items: { type: ['integer', 'string'] } },
    },
  },
  'POST /api/bank-accounts': {
    type: 'object',
    properties: {
      accountName: s('账户名称'),
      bankName: s('开户银行'),
      accountNo: s('银行账号'),
      branch: s('开户支行'),
      isDefault: { type: 'boolean', title: '设为默认账户' },
    },
  },
};
