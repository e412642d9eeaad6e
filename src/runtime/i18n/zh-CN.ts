import { PAGINATION_LABELS } from '../table/sizing';
/** Simplified Chinese (default): the runtime chrome — layout, table pagination (spec §9), common buttons. */
const zhCN = {
  header: {
    switchBusiness: '切换企业',
    noBusiness: '未选择企业',
    current: '当前',
    switchedTo: '已切换到 {{name}}',
    topNav: '切换为顶部导航',
    sideNav: '切换为侧边导航',
    logout: '退出登录',
    loggedOut: '已退出登录',
  },
  // The specification (§9) gives these pagination labels in English for the console; only the total
  // reads in Chinese (共 N 条). Kept as the spec spells them, in every language.
  pagination: {
    ...PAGINATION_LABELS,
    total: '共 {{total}} 条',
    totalEstimated: '约 {{total}} 条',
  },
  button: {
    submit: '提交',
    save: '保存',
    cancel: '取消',
    confirm: '确定',
    export: '导出',
    retry: '重试',
    back: '返回',
  },
} as const;

export default zhCN;
