import { describe, expect, it } from 'vitest';
import { httpSmsProvider } from '../../src/server/services/sms.ts';
import { OPERATOR_TOKEN, rows, useProdGateway, useSmsDouble } from './deploy-helpers.ts';
import { targets } from './money-helpers.ts';

const TAX = '91310104MA1FL2XK9Q';
const PHONE = '13712345678';

for (const t of targets()) {
  describe(`onboarding in production, without demo data (${t.name})`, () => {
    const sms = useSmsDouble();
    const g = useProdGateway(t, () => ({ operatorToken: OPERATOR_TOKEN, sms: httpSmsProvider({ url: sms.url, token: 'vendor-key', sign: '保险服务' }) }));
    const op = (path: string, body: unknown, token: string | null = OPERATOR_TOKEN) => g.call('POST', `/api/operator${path}`, { body, token });
    let businessId = '';

    it('starts production on an empty database: no business, no user, development providers none', async () => {
      expect(await rows(g.db, 'SELECT 1 FROM businesses')).toBe(0);
      expect(await rows(g.db, 'SELECT 1 FROM users')).toBe(0);
      expect(g.server.providers).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^SMS: custom provider|^SMS: HTTP/),
          expect.stringMatching(/^payments: none/),
          expect.stringMatching(/^environment: production$/),
        ]),
      );
    });

    it('the operator API refuses a wrong or missing credential and stores nothing', async () => {
      for (const token of [null, 'wrong-token', `${OPERATOR_TOKEN}x`]) {
        const r = await op('/businesses', { name: '某某公司', chargeForm: 'prepaid', taxNo: TAX }, token);
        expect(r.status).toBe(401);
        expect(r.body.message).toBe('运营凭证无效');
      }
      // A user's session is no operator credential either.
      expect(await rows(g.db, 'SELECT 1 FROM businesses')).toBe(0);
    });

    it('refuses a bad business by field, storing nothing', async () => {
      const bad = [
        [{ name: '', chargeForm: 'prepaid', taxNo: TAX }, 'name', '请填写企业名称'],
        [{ name: '上海\u200b鑫达', chargeForm: 'prepaid', taxNo: TAX }, 'name', '企业名称不能包含控制字符或不可见字符'],
        [{ name: '上海鑫达', chargeForm: 'monthly', taxNo: TAX }, 'chargeForm', '收费方式只能是 prepaid（预付费）或 postpaid（后付费）'],
        [{ name: '上海鑫达', chargeForm: 'prepaid', taxNo: '123' }, 'taxNo', '税号应为 15–20 位字母或数字'],
        [{ name: '上海鑫达', chargeForm: 'prepaid', taxNo: TAX, servicePacks: ['gold'] }, 'servicePacks', '未知的服务包：gold（可选：attendance）'],
      ] as const;
      for (const [body, field, message] of bad) {
        const r = await op('/businesses', body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.errors).toEqual([{ field, message }]);
      }
      expect(await rows(g.db, 'SELECT 1 FROM businesses')).toBe(0);
    });

    it('creates a business with its name, charge form, service packs and tax number; one business per tax number', async () => {
      const r = await op('/businesses', { name: ' 上海鑫达人力资源有限公司 ', chargeForm: 'prepaid', servicePacks: ['attendance'], taxNo: TAX.toLowerCase() });
      expect(r.status).toBe(200);
      businessId = r.body.data.id;
      expect(businessId).toMatch(/^B\d+$/);
      const [b] = await g.db.query(`SELECT name, charge_form, service_packs, tax_no, balance_cents::int AS balance FROM businesses WHERE id = $1`, [businessId]);
      expect(b).toEqual({ name: '上海鑫达人力资源有限公司', charge_form: 'prepaid', service_packs: ['attendance'], tax_no: TAX, balance: 0 });
      const again = await op('/businesses', { name: '另一家', chargeForm: 'postpaid', taxNo: TAX });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(`税号 ${TAX} 已属于企业 ${businessId}`);
      expect(await rows(g.db, 'SELECT 1 FROM businesses')).toBe(1);
    });

    it('adds a user with a role (an account without a password); refusals store nothing', async () => {
      expect((await op('/users', { phone: PHONE, businessId, role: 'owner' })).body.errors).toEqual([{ field: 'role', message: '角色只能是 admin（企业管理员）或 operator（操作员）' }]);
      expect((await op('/users', { phone: PHONE, businessId: 'B99999', role: 'admin' })).status).toBe(404);
      expect((await op('/users', { phone: '12345', businessId, role: 'admin' })).status).toBe(400);
      expect(await rows(g.db, 'SELECT 1 FROM users')).toBe(0);
      const r = await op('/users', { phone: PHONE, businessId, role: 'admin' });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ phone: PHONE, businessId, role: 'admin', created: true });
      const [m] = await g.db.query(`SELECT ub.user_type FROM user_businesses ub JOIN users u ON u.id = ub.user_id WHERE u.phone = $1 AND ub.business_id = $2`, [PHONE, businessId]);
      expect(m).toEqual({ user_type: 'admin' });
      // No password yet: signing in fails like a wrong password.
      expect((await g.call('POST', '/api/auth/login', { body: { phone: PHONE, password: 'anything1' } })).status).toBe(401);
    });

    it('sends a set-password code through the HTTP SMS provider, checked by the vendor double; the user sets a password and signs in', async () => {
      const before = sms.requests.length;
      const r = await op('/invitations', { phone: PHONE, consoleUrl: 'https://console.example.com/' });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({ phone: PHONE, validHours: 72 });
      expect(sms.requests.length).toBe(before + 1);
      const req = sms.requests.at(-1)!;
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/sms/send');
      expect(req.headers.authorization).toBe('Bearer vendor-key');
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.body).toMatchObject({ phone: PHONE, purpose: 'set-password' });
      expect(req.body.code).toMatch(/^\d{6}$/);
      expect(req.body.text).toBe(
        `【保险服务】您已被添加为「上海鑫达人力资源有限公司」的用户。请打开 https://console.example.com/ ，点击「忘记密码」，用验证码 ${req.body.code} 设置密码，72 小时内有效。`,
      );
      // Only a salted hash of the code is stored.
      const [code] = await g.db.query<{ purpose: string; code_hash: string }>('SELECT purpose, code_hash FROM sms_codes WHERE phone = $1', [PHONE]);
      expect(code.purpose).toBe('set-password');
      expect(code.code_hash).not.toContain(req.body.code!);

      const set = await g.call('POST', '/api/auth/set-password', { body: { phone: PHONE, code: req.body.code, password: 'firstpass1' } });
      expect(set.status).toBe(200);
      const login = await g.call('POST', '/api/auth/login', { body: { phone: PHONE, password: 'firstpass1' } });
      expect(login.status).toBe(200);
      expect(login.body.data.businessList).toEqual([expect.objectContaining({ businessId, businessName: '上海鑫达人力资源有限公司', userType: 'admin', chargeForm: 'prepaid' })]);
    });

    it('a vendor failure is a 503 and keeps no code; a phone without a business is a 404', async () => {
      await g.db.query('DELETE FROM sms_codes');
      sms.status = 500;
      try {
        const r = await op('/invitations', { phone: PHONE });
        expect(r.status).toBe(503);
        expect(r.body.message).toBe('短信发送失败，未保存验证码：SMS provider answered 500');
      } finally {
        sms.status = 200;
      }
      expect(await rows(g.db, 'SELECT 1 FROM sms_codes')).toBe(0);
      expect((await op('/invitations', { phone: '13600000000' })).status).toBe(404);
      expect(await rows(g.db, 'SELECT 1 FROM sms_codes')).toBe(0);
    });
  });

  describe(`production without an SMS provider or operator credential (${t.name})`, () => {
    const g = useProdGateway(t);

    it('says so at start, refuses codes (503) and online payment, and hides the operator API (404)', async () => {
      expect(g.server.providers).toEqual(
        expect.arrayContaining(['SMS: none (set SMS_HTTP_URL; requesting a code answers 503)', 'operator API: off (set OPERATOR_TOKEN)', 'environment: production']),
      );
      const code = await g.call('POST', '/api/auth/sms-code', { body: { phone: PHONE } });
      expect(code.status).toBe(503);
      expect(code.body.message).toBe('短信服务暂不可用');
      expect(await rows(g.db, 'SELECT 1 FROM sms_codes')).toBe(0);
      const op = await g.call('POST', '/api/operator/businesses', { body: { name: 'x' }, token: 'anything' });
      expect(op.status).toBe(404);
      expect(await rows(g.db, 'SELECT 1 FROM businesses')).toBe(0);
    });

    it('the browser is told production', async () => {
      const { appConfigFromEnv } = await import('../../src/server/http/static.ts');
      const { appEnvName } = await import('../../src/server/environment.ts');
      expect(appConfigFromEnv({}, appEnvName({}))).toEqual({ env: 'production' });
      expect(appEnvName({}, true)).toBe('development');
      expect(appEnvName({ APP_ENV: 'beta' }, true)).toBe('beta');
    });
  });
}
