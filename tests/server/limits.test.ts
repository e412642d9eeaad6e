import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import type { SmsProvider } from '../../src/server/services/sms.ts';
import { backoffMs } from '../../src/server/services/login-limits.ts';
import { DEMO, toRes } from './helpers.ts';
import { OPERATOR_TOKEN, rows } from './deploy-helpers.ts';
import { targets } from './money-helpers.ts';

const OTHER = { phone: '13900000001', password: 'demo1234' };

describe('backoff', () => {
  it('starts at the threshold with 30 s and doubles up to the cap', () => {
    const cap = 15 * 60_000;
    expect([3, 4, 5, 6, 7, 8, 9, 10, 30].map((n) => backoffMs(n, 5, cap))).toEqual([0, 0, 30_000, 60_000, 120_000, 240_000, 480_000, cap, cap]);
  });
});

for (const t of targets()) {
  describe(`sign-in limits stop guessing, not users (${t.name})`, () => {
    let db: Db;
    let s: RunningServer;
    const sent: { phone: string; code: string }[] = [];
    let slowSend: () => void = () => undefined;
    const sms: SmsProvider = {
      async send(phone, code) {
        await new Promise<void>((r) => (slowSend = r));
        sent.push({ phone, code });
      },
    };
    // Each test speaks from its own address (X-Forwarded-For, trusted from the loopback proxy).
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const call = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
      toRes(await fetch(`${s.url}${path.replace(/^\//, '')}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }));
    const login = (who: { phone: string; password: string }, ip: string) => call('/api/auth/login', who, from(ip));
    const failures = (phone: string) => rows(db, `SELECT 1 FROM rate_limits WHERE key LIKE $1`, [`login-fail:${phone}%`]);

    beforeAll(async () => {
      db = await t.open();
      s = await startServer({ port: 0, db, production: false, trustProxy: 'loopback', sms, operatorToken: OPERATOR_TOKEN, limits: { smsAnswerMs: 150 } });
    }, 120_000);
    afterAll(async () => {
      slowSend();
      await s?.close();
      await db?.close();
    });

    it('ten parallel sign-ins with the right password all succeed and count nothing', async () => {
      const all = await Promise.all(Array.from({ length: 10 }, () => login(DEMO, '10.1.0.1')));
      expect(all.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(await failures(DEMO.phone)).toBe(0);
    });

    it('five wrong passwords from one address make that address wait 30 s; the user elsewhere signs in; a success clears', async () => {
      const st = [];
      for (let i = 0; i < 5; i++) st.push((await login({ phone: DEMO.phone, password: 'wrong1234' }, '10.1.0.66')).status);
      expect(st).toEqual([401, 401, 401, 401, 423]);
      const right = await login(DEMO, '10.1.0.66');
      expect(right.status).toBe(423);
      expect(right.body.message).toMatch(/^密码错误次数过多，请 (29|30) 秒后再试，或通过「忘记密码」用短信验证码重设密码$/);
      // The attacker's address waits; the user at another address is not locked out.
      const user = await login(DEMO, '10.1.0.2');
      expect(user.status).toBe(200);
      expect(await failures(DEMO.phone)).toBe(0);
      expect((await login(DEMO, '10.1.0.66')).status).toBe(200);
    });

    it('after a wait the next wrong password doubles it; a concurrent burst of guesses cannot slip past the backoff', async () => {
      const ip = '10.1.0.77';
      const burst = await Promise.all(Array.from({ length: 30 }, () => login({ phone: OTHER.phone, password: 'wrong1234' }, ip)));
      expect(burst.filter((r) => r.status === 401).length).toBe(4);
      expect(burst.filter((r) => r.status === 423).length).toBe(26);
      expect(await rows(db, `SELECT 1 FROM rate_limits WHERE key = $1 AND count = 5`, [`login-fail:${OTHER.phone}@${ip}`])).toBe(1);
      // The 30 s have passed (moved back in the table): one more wrong password waits 60 s.
      await db.query(`UPDATE rate_limits SET window_start = now() - interval '1 second' WHERE key = $1`, [`login-until:${OTHER.phone}@${ip}`]);
      const next = await login({ phone: OTHER.phone, password: 'wrong1234' }, ip);
      expect(next.status).toBe(423);
      expect(next.body.message).toMatch(/请 (59 秒|1 分钟)后再试/);
    });

    it('too many wrong passwords for one account from many addresses start an account-wide backoff', async () => {
      const phone = '13800000000';
      await db.query(`DELETE FROM rate_limits WHERE key LIKE 'login-%'`);
      // 49 failures recorded from other addresses (as many attackers would leave them), then the 50th.
      await db.query(`INSERT INTO rate_limits (key, window_start, count) VALUES ($1, date_trunc('day', now()), 49)`, [`login-fail:${phone}`]);
      const r = await login({ phone, password: 'wrong1234' }, '10.1.0.88');
      expect(r.status).toBe(423);
      expect((await login(DEMO, '10.1.0.89')).status).toBe(423);
      // The operator unlocks the account (the SMS reset does the same).
      const unlock = await call('/api/operator/unlock', { phone }, { authorization: `Bearer ${OPERATOR_TOKEN}` });
      expect(unlock.status).toBe(200);
      expect((await login(DEMO, '10.1.0.89')).status).toBe(200);
    });

    it('one address guessing many accounts is stopped after 30 wrong passwords in 15 minutes', async () => {
      const ip = '10.1.0.99';
      const st: number[] = [];
      for (let i = 0; i < 31; i++) st.push((await login({ phone: `137${String(i).padStart(8, '0')}`, password: 'wrong1234' }, ip)).status);
      expect(st.slice(0, 30).every((x) => x === 401)).toBe(true);
      expect(st[30]).toBe(429);
      expect((await login(DEMO, ip)).status).toBe(429);
    });

    it('the password change has the same limit; while it applies the right password changes nothing', async () => {
      const ip = '10.1.0.111';
      const token = (await login(DEMO, ip)).body.data.token as string;
      const change = (oldPassword: string) =>
        call('/api/settings/password', { oldPassword, newPassword: 'changed123' }, { authorization: `Bearer ${token}`, ...from(ip) });
      const [before] = await db.query<{ h: string }>('SELECT password_hash AS h FROM users WHERE phone = $1', [DEMO.phone]);
      const st = [];
      for (let i = 0; i < 5; i++) st.push((await change('wrong1234')).status);
      expect(st).toEqual([400, 400, 400, 400, 423]);
      const right = await change(DEMO.password);
      expect(right.status).toBe(423);
      const [after] = await db.query<{ h: string }>('SELECT password_hash AS h FROM users WHERE phone = $1', [DEMO.phone]);
      expect(after.h).toBe(before.h);
      await db.query(`DELETE FROM rate_limits WHERE key LIKE 'login-%'`);
    });

    it('an SMS code request is answered the same way and after the same wait whether or not the phone is registered', async () => {
      const registered = await call('/api/auth/sms-code', { phone: DEMO.phone }, from('10.2.0.1'));
      // Answered while the (slow) provider is still sending: the answer does not wait for it.
      expect(sent.length).toBe(0);
      const unknown = await call('/api/auth/sms-code', { phone: '13611112222' }, from('10.2.0.2'));
      expect([registered.status, unknown.status]).toEqual([200, 200]);
      expect(registered.body).toEqual({ code: 0, message: 'ok', data: { sentTo: '138****0000', expiresIn: 300 } });
      expect(unknown.body).toEqual({ code: 0, message: 'ok', data: { sentTo: '136****2222', expiresIn: 300 } });
      slowSend();
      await expect.poll(() => sent.length).toBe(1);
      expect(sent[0].phone).toBe(DEMO.phone);
      expect(await rows(db, 'SELECT 1 FROM sms_codes WHERE phone = $1', ['13611112222'])).toBe(0);
      expect(await rows(db, 'SELECT 1 FROM sms_codes WHERE phone = $1 AND consumed_at IS NULL', [DEMO.phone])).toBe(1);
    });
  });
}
