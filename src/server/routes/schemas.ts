/** Shared JSON-schema fragments for request bodies (title = the Chinese field label). */
export const phoneSchema = {
  type: 'string',
  title: '手机号',
  minLength: 1,
  maxLength: 20,
  pattern: '^1[3-9]\\d{9}$',
  'x-messages': { pattern: '请输入正确的 11 位手机号' },
} as const;

export const passwordSchema = (title: string, required = '请输入密码') =>
  ({ type: 'string', title, minLength: 1, maxLength: 128, 'x-messages': { required, minLength: required } }) as const;

/** Reply schema of the common envelope, for the OpenAPI document. */
export const envelope = (data: object = {}) => ({
  200: {
    type: 'object',
    properties: { code: { type: 'integer', const: 0 }, message: { type: 'string' }, data },
  },
});

/** Password policy (kept in code: its messages depend on which rule fails). */
export function passwordProblem(pw: string): string | null {
  if (pw.length < 8) return '密码至少 8 位';
  if (pw.length > 64) return '密码不能超过 64 位';
  if (!/[A-Za-z]/.test(pw) || !/\d/.test(pw)) return '密码需同时包含字母和数字';
  return null;
}
