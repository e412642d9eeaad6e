import { describe, expect, it } from 'vitest';
import { BIZ_ADMIN, BIZ_OPERATOR, DEMO, useGateway } from './helpers.ts';

// Sign-in, tokens, sign-out and password rules through the API, on a gateway of this file's own.
const c = useGateway();

describe('auth', () => {
  it('logs in with the demo account and lists both businesses', async () => {
    const r = await c.call('POST', '/api/auth/login', { body: DEMO, token: null, biz: null });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    expect(r.body.message).toBe('ok');
    expect(r.body.data.userTel).toBe(DEMO.phone);
    expect(typeof r.body.data.token).toBe('string');
    const list = r.body.data.businessList;
    expect(list.map((b: any) => b.businessId)).toEqual([BIZ_ADMIN, BIZ_OPERATOR]);
    expect(list[0]).toMatchObject({ chargeForm: 'prepaid', userType: 'admin', servicePacks: ['attendance'] });
    expect(list[1]).toMatchObject({ chargeForm: 'postpaid', userType: 'operator', servicePacks: [] });
    expect(typeof list[0].balance).toBe('number');
  });

  it('rejects a wrong password with 401', async () => {
    const r = await c.call('POST', '/api/auth/login', { body: { phone: DEMO.phone, password: 'wrong123' }, token: null, biz: null });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe(40100);
    expect(r.body.message).toBe('手机号或密码错误');
    expect(r.body.data).toBeUndefined();
  });

  it('rejects a malformed phone with 400 and a field error', async () => {
    const r = await c.call('POST', '/api/auth/login', { body: { phone: '12345', password: 'demo1234' }, token: null, biz: null });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(40000);
    expect(r.body.message).toBe('填写内容有误，请按提示修改');
    expect(r.body.errors).toEqual([{ field: 'phone', message: '请输入正确的 11 位手机号' }]);
    const empty = await c.call('POST', '/api/auth/login', { body: {}, token: null, biz: null });
    expect(empty.body.errors).toEqual([
      { field: 'phone', message: '请填写手机号' },
      { field: 'password', message: '请输入密码' },
    ]);
  });

  it('requires a token for business data', async () => {
    const none = await c.call('GET', '/api/orders', { token: null });
    expect(none.status).toBe(401);
    expect(none.body.message).toBe('请先登录');
    const bogus = await c.call('GET', '/api/orders', { token: 'not-a-token' });
    expect(bogus.body.code).toBe(40100);
    expect(bogus.body.message).toBe('登录已过期，请重新登录');
    const noBiz = await c.call('GET', '/api/orders', { biz: null });
    expect(noBiz.status).toBe(400);
    expect(noBiz.body).toMatchObject({ code: 40000, message: '请先选择企业', errors: [{ field: 'X-Company-Id', message: '请选择企业' }] });
  });

  it('rotates refresh tokens and rejects a used one', async () => {
    const first = await c.call('POST', '/api/auth/login', { body: DEMO, token: null, biz: null });
    const rt = first.body.data.refreshToken;
    const r1 = await c.call('POST', '/api/auth/refresh', { body: { refreshToken: rt }, token: null, biz: null });
    expect(r1.status).toBe(200);
    expect(r1.body.data.refreshToken).not.toBe(rt);
    const ok = await c.call('GET', '/api/businesses', { token: r1.body.data.token, biz: null });
    expect(ok.status).toBe(200);
    const reused = await c.call('POST', '/api/auth/refresh', { body: { refreshToken: rt }, token: null, biz: null });
    expect(reused.status).toBe(401);
    expect(reused.body.message).toBe('登录凭证已失效，请重新登录');
    // Reuse revokes the whole session, including the newest tokens.
    const after = await c.call('GET', '/api/businesses', { token: r1.body.data.token, biz: null });
    expect(after.status).toBe(401);
  });

  it('logout revokes the access token', async () => {
    const s = await c.call('POST', '/api/auth/login', { body: DEMO, token: null, biz: null });
    const t = s.body.data.token;
    expect((await c.call('POST', '/api/auth/logout', { token: t, biz: null })).status).toBe(200);
    expect((await c.call('GET', '/api/businesses', { token: t, biz: null })).status).toBe(401);
  });

  it('sms-code and set-password validate input', async () => {
    const sms = await c.call('POST', '/api/auth/sms-code', { body: { phone: DEMO.phone }, token: null, biz: null });
    expect(sms.body.data.sentTo).toBe('138****0000');
    const bad = await c.call('POST', '/api/auth/set-password', {
      body: { phone: DEMO.phone, code: '000000', password: 'short' },
      token: null,
      biz: null,
    });
    expect(bad.status).toBe(400);
    // The password policy is checked first, so a weak password does not use up one of the code's tries.
    expect(bad.body.errors).toEqual([{ field: 'password', message: '密码至少 8 位' }]);
    const noDigits = await c.call('POST', '/api/auth/set-password', {
      body: { phone: '13900000009', code: '123456', password: 'lettersonly' },
      token: null,
      biz: null,
    });
    expect(noDigits.body.errors).toEqual([{ field: 'password', message: '密码需同时包含字母和数字' }]);
    const unknown = await c.call('POST', '/api/auth/set-password', {
      body: { phone: '13900000009', code: '123456', password: 'abc12345' },
      token: null,
      biz: null,
    });
    expect(unknown.status).toBe(400);
    // There is no fixed code any more, and the answer does not reveal whether the phone has an account.
    expect(unknown.body).toMatchObject({ errors: [{ field: 'code', message: '验证码已失效或未获取，请重新获取' }] });
  });
});

describe('password change', () => {
  it('changes the password with the old one', async () => {
    const wrong = await c.call('POST', '/api/settings/password', { body: { oldPassword: 'nope1234', newPassword: 'newpass123' }, biz: null });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: '原密码错误', errors: [{ field: 'oldPassword', message: '原密码错误' }] });
    const weak = await c.call('POST', '/api/settings/password', { body: { oldPassword: 'demo1234', newPassword: '' }, biz: null });
    expect(weak.body.errors).toEqual([{ field: 'newPassword', message: '请输入新密码' }]);
  });

  it('refuses the current password as the new one and keeps the stored password', async () => {
    const [before] = await c.server.db.query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE phone = '13800000000'`);
    const same = await c.call('POST', '/api/settings/password', { body: { oldPassword: 'demo1234', newPassword: 'demo1234' }, biz: null });
    expect(same.status).toBe(400);
    expect(same.body.errors).toEqual([{ field: 'newPassword', message: '新密码不能与原密码相同' }]);
    const [after] = await c.server.db.query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE phone = '13800000000'`);
    expect(after.password_hash).toBe(before.password_hash);
  });
});
