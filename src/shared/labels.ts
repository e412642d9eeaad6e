/** Chinese display labels for codes the gateway and schemas use (never show a raw code to users). */

/** Service packs (feature packages) a business can have. */
export const SERVICE_PACK_LABELS: Record<string, string> = { attendance: '考勤' };

export const CHARGE_FORM_LABELS: Record<string, string> = { prepaid: '预付费', postpaid: '后付费' };

export const USER_TYPE_LABELS: Record<string, string> = { admin: '管理员', operator: '操作员' };

/** Label of a service pack; an unknown id is shown as 「未知服务包」 rather than the raw id. */
export function servicePackLabel(id: string): string {
  return SERVICE_PACK_LABELS[id] ?? '未知服务包';
}
