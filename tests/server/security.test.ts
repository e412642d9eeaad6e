import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/db.ts';
import { migrate } from '../../src/server/migrate.ts';
import { seed } from '../../src/server/seed.ts';
import { startServer, StartupError } from '../../src/server/server.ts';
import { windowAt } from '../../src/server/services/rate-limit.ts';
import type { SmsProvider } from '../../src/server/services/sms.ts';
import { BIZ_ADMIN, DEMO, boot, clearOfWindowEdge, makeIdCard, type Client } from './helpers.ts';

const OTHER = { phone: '13900000001', password: DEMO.password }; // second seeded account
const sent: { phone: string; code: string }[] = [];
const capture: SmsProvider = {
  async send(phone, code) {
    sent.push({ phone, code });
  },
};
const taken = new Map<string, number>();
/** The code of the next request for this phone: sent in the background after the answer (services/sms-codes.ts). */
const lastCode = async (phone: string) => {
  const mine = () => sent.filter((s) => s.phone === phone);
  await expect.poll(() => mine().length, { timeout: 10_000 }).toBeGreaterThan(taken.get(phone) ?? 0);
  taken.set(phone, mine().length);
  return mine().at(-1)!.code;
};
const anon = { token: null, biz: null } as const;

let c: Client; // default limits
let relaxed: Client; // many SMS codes per minute, to walk through a code's life
let plain: Db; // migrated, not seeded (opening a database is the slow part of a gateway start)
const extra: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  c = await boot({ sms: capture });
  relaxed = await boot({ sms: capture, limits: { smsPerPhoneMinute: 100, smsPerPhoneDay: 100, smsPerIpHour: 100 } });
  plain = await openDb({ dataDir: 'memory' });
  await migrate(plain);
}, 60000);

afterAll(async () => {
  for (const s of extra) await s.close();
  await c?.server.close();
  await relaxed?.server.close();
  await plain?.close();
});

describe('password reset by SMS code', () => {
  it('the former fixed code 123456 does not reset a password without a requested code', async () => {
    const r = await c.call('POST', '/api/auth/set-password', { body: { phone: DEMO.phone, code: '123456', password: 'takeover123' }, ...anon });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'code', message: '验证码已失效或未获取，请重新获取' }]);
    expect((await c.call('POST', '/api/auth/login', { body: DEMO, ...anon })).status).toBe(200);
  });

  it('sends a random 6-digit code, stores only its hash, and limits requests per phone', async () => {
    await clearOfWindowEdge(60_000);
    const r = await c.call('POST', '/api/auth/sms-code', { body: { phone: DEMO.phone }, ...anon });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ sentTo: '138****0000', expiresIn: 300 });
    const code = await lastCode(DEMO.phone);
    expect(code).toMatch(/^\d{6}$/);
    const rows = await c.server.db.query<{ code_hash: string }>('SELECT code_hash FROM sms_codes WHERE phone = $1', [DEMO.phone]);
    expect(rows.length).toBe(1);
    expect(rows[0].code_hash).not.toContain(code);
    const again = await c.call('POST', '/api/auth/sms-code', { body: { phone: DEMO.phone }, ...anon });
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^验证码发送过于频繁，请 \d+ 秒后再试$/);
  });

  it('limits code requests per IP, also for a burst of concurrent requests', async () => {
    await clearOfWindowEdge(3_600_000);
    // The requests before this test came from the same IP, some maybe in this hour's window.
    const { start } = windowAt(3_600_000);
    const counted = async () =>
      Number((await c.server.db.query<{ n: number }>(`SELECT coalesce(sum(count), 0)::int AS n FROM rate_limits WHERE key LIKE 'sms-ip:%' AND window_start = $1`, [start]))[0].n);
    const before = await counted();
    // One burst, each answer after the fixed answer time (limits.smsAnswerMs): exactly the hour's 20 pass.
    const burst = await Promise.all(
      Array.from({ length: 21 }, (_, i) => c.call('POST', '/api/auth/sms-code', { body: { phone: `1370000${String(i).padStart(4, '0')}` }, ...anon })),
    );
    expect(burst.filter((r) => r.status === 200)).toHaveLength(20 - before);
    const refused = burst.filter((r) => r.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body.message).toBe('获取验证码过于频繁，请 1 小时后再试');
    }
    // Every request was counted, the refused ones too.
    expect(await counted()).toBe(before + 21);
  });

  it('a code dies after 5 wrong tries, expires, and works only once; a reset ends every session', async () => {
    const phone = OTHER.phone;
    const before = await relaxed.call('POST', '/api/auth/login', { body: OTHER, ...anon });
    const oldToken = before.body.data.token;
    await relaxed.call('POST', '/api/auth/sms-code', { body: { phone }, ...anon });
    const code = await lastCode(phone);
    const wrong = code === '000000' ? '000001' : '000000';
    const tries = [];
    for (let i = 0; i < 5; i++) {
      tries.push((await relaxed.call('POST', '/api/auth/set-password', { body: { phone, code: wrong, password: 'newpass123' }, ...anon })).body.errors[0].message);
    }
    expect(tries).toEqual(['短信验证码错误', '短信验证码错误', '短信验证码错误', '短信验证码错误', '验证码错误次数过多，请重新获取']);
    const dead = await relaxed.call('POST', '/api/auth/set-password', { body: { phone, code, password: 'newpass123' }, ...anon });
    expect(dead.body.errors).toEqual([{ field: 'code', message: '验证码错误次数过多，请重新获取' }]);

    await relaxed.call('POST', '/api/auth/sms-code', { body: { phone }, ...anon });
    const stale = await lastCode(phone);
    await relaxed.server.db.query(`UPDATE sms_codes SET expires_at = now() - interval '1 second' WHERE consumed_at IS NULL`);
    const expired = await relaxed.call('POST', '/api/auth/set-password', { body: { phone, code: stale, password: 'newpass123' }, ...anon });
    expect(expired.body.errors).toEqual([{ field: 'code', message: '验证码已失效或未获取，请重新获取' }]);

    await relaxed.call('POST', '/api/auth/sms-code', { body: { phone }, ...anon });
    const fresh = await lastCode(phone);
    const ok = await relaxed.call('POST', '/api/auth/set-password', { body: { phone, code: fresh, password: 'newpass123' }, ...anon });
    expect(ok.status).toBe(200);
    const reused = await relaxed.call('POST', '/api/auth/set-password', { body: { phone, code: fresh, password: 'other1234' }, ...anon });
    expect(reused.status).toBe(400);
    expect((await relaxed.call('GET', '/api/businesses', { token: oldToken, biz: null })).status).toBe(401);
    expect((await relaxed.call('POST', '/api/auth/login', { body: { phone, password: 'newpass123' }, ...anon })).status).toBe(200);
  });

  it('in production the development provider is refused: 503', async () => {
    const s = await startServer({ port: 0, db: plain, production: true });
    extra.push(s);
    const r = await fetch(`${s.url}api/auth/sms-code`, { method: 'POST', body: JSON.stringify({ phone: DEMO.phone }) });
    expect(r.status).toBe(503);
    expect((await r.json()).message).toBe('短信服务暂不可用');
  });
});

describe('sign-in', () => {
  it('locks the account after 5 wrong passwords, even for the right password, across gateway processes', async () => {
    // Two gateways on one database: the counters live in the database, not in a process.
    const db = await openDb({ dataDir: 'memory' });
    await migrate(db);
    await seed(db);
    const a = await startServer({ port: 0, db, production: false });
    const b = await startServer({ port: 0, db, production: false });
    extra.push(a, b, { close: () => db.close() });
    const login = (s: typeof a, password: string) =>
      fetch(`${s.url}api/auth/login`, { method: 'POST', body: JSON.stringify({ phone: DEMO.phone, password }) });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(i % 2 ? a : b, 'wrong1234')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    const sixth = await login(b, DEMO.password);
    expect(sixth.status).toBe(423);
    expect((await sixth.json()).message).toMatch(/^密码错误次数过多，请 (29|30) 秒后再试，或通过「忘记密码」用短信验证码重设密码$/);
  });

  it('a flood of 50 concurrent wrong passwords does not stall other users and cannot slip past the lock', async () => {
    const flood = Array.from({ length: 50 }, () => c.call('POST', '/api/auth/login', { body: { phone: OTHER.phone, password: 'wrong1234' }, ...anon }));
    const read = c.call('GET', '/api/businesses', { token: (await c.login()).token, biz: null });
    const [results, r] = await Promise.all([Promise.all(flood), read]);
    expect(r.status).toBe(200);
    expect(results.every((x) => x.status === 401 || x.status === 423)).toBe(true);
    expect(results.filter((x) => x.status === 401).length).toBeLessThanOrEqual(4);
  });

  it('limits sign-in attempts per IP and the API per IP', async () => {
    const s = await boot({ db: plain, seed: false, limits: { loginPerIp: 3, apiPerMinute: 8 } });
    extra.push(s.server);
    await clearOfWindowEdge(15 * 60_000); // sign-in attempts are counted per 15 minutes, API calls per minute
    await clearOfWindowEdge(60_000);
    const st = [];
    for (let i = 0; i < 4; i++) st.push((await s.call('POST', '/api/auth/login', { body: { phone: `1370000000${i}`, password: 'x1234567' }, ...anon })).status);
    expect(st).toEqual([401, 401, 401, 429]);
    let last;
    for (let i = 0; i < 6; i++) last = await s.call('GET', '/api/businesses', anon);
    expect(last!.status).toBe(429);
    expect(last!.body.message).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
  });

  it('counts a signed-in request in its authentication statement: the same counter, limit, headers and message', async () => {
    const s = await boot({ limits: { apiPerMinute: 6 } });
    extra.push(s.server);
    await clearOfWindowEdge(60_000);
    const login = await s.call('POST', '/api/auth/login', { body: DEMO, ...anon }); // 1: counted by the rate-limit plugin
    const token = login.body.data.token as string;
    const ip = (await s.server.db.query<{ key: string }>(`SELECT key FROM rate_limits WHERE key LIKE 'api:%'`))[0].key;
    const counted = async () => Number((await s.server.db.query<{ n: number }>(`SELECT sum(count)::int AS n FROM rate_limits WHERE key = $1`, [ip]))[0].n);
    expect(await counted()).toBe(1);
    const first = await s.call('GET', '/api/businesses', { token, biz: null }); // 2: counted with the token lookup
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('6');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(await counted()).toBe(2);
    expect((await s.call('GET', '/api/orders?pageSize=5', { token })).status).toBe(200); // 3 (business route)
    expect((await s.call('GET', '/api/orders', { token, biz: null })).status).toBe(400); // 4: no business chosen, counted once
    expect((await s.call('GET', '/api/businesses', { token: 'dead-token', biz: null })).status).toBe(401); // 5
    expect(await counted()).toBe(5);
    expect((await s.call('GET', '/api/businesses', { token, biz: null })).status).toBe(200); // 6: the last allowed
    const over = await s.call('GET', '/api/businesses', { token, biz: null }); // 7
    expect(over.status).toBe(429);
    expect(over.body.message).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Over the limit, a dead token is a 429 as well (the limit is checked first), and anonymous calls too.
    expect((await s.call('GET', '/api/businesses', { token: 'dead-token', biz: null })).status).toBe(429);
    expect((await s.call('GET', '/api/businesses', anon)).status).toBe(429);
    expect(await counted()).toBe(9);
  });

  it('changing the password keeps this session and ends the others', async () => {
    const one = (await relaxed.call('POST', '/api/auth/login', { body: DEMO, ...anon })).body.data;
    const two = (await relaxed.call('POST', '/api/auth/login', { body: DEMO, ...anon })).body.data;
    const r = await relaxed.call('POST', '/api/settings/password', { body: { oldPassword: DEMO.password, newPassword: 'changed123' }, token: one.token, biz: null });
    expect(r.status).toBe(200);
    expect((await relaxed.call('GET', '/api/businesses', { token: two.token, biz: null })).status).toBe(401);
    const refresh = await relaxed.call('POST', '/api/auth/refresh', { body: { refreshToken: two.refreshToken }, ...anon });
    expect(refresh.status).toBe(401);
    expect((await relaxed.call('GET', '/api/businesses', { token: one.token, biz: null })).status).toBe(200);
  });
});

describe('demo data only in demo mode', () => {
  it('does not seed by default', async () => {
    const s = await startServer({ port: 0, db: plain });
    extra.push(s);
    expect((await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0].n).toBe(0);
  });

  it('refuses to start in production in demo mode or with demo accounts present', async () => {
    await expect(startServer({ port: 0, db: plain, production: true, seed: true })).rejects.toBeInstanceOf(StartupError);
    expect((await plain.query<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0].n).toBe(0);
    // c's database holds the seeded demo accounts.
    await expect(startServer({ port: 0, db: c.server.db, production: true })).rejects.toThrow(/demo accounts/);
  });
});

describe('input bounds', () => {
  it('dates outside 1900–2100 are a 400, never a 500', async () => {
    await c.login();
    const rows = [{ name: '王小二', idCard: makeIdCard('310104', '19880101', 501), phone: '', jobType: '' }];
    const roster = await c.call('POST', '/api/insure/roster', { body: { planName: '雇主责任险·标准版（60万）', startDate: '9999-12-31', rows } });
    expect(roster.status).toBe(400);
    expect(roster.body.errors).toEqual([{ field: 'startDate', message: '起保日期格式不正确' }]);
    const claim = await c.call('POST', '/api/claims', {
      body: { personName: '周建国', idCard: makeIdCard('110101', '19800808', 9), accidentDate: '0000-01-01', accidentType: '其他', description: 'x', amount: 1 },
    });
    expect(claim.status).toBe(400);
    expect(claim.body.errors).toEqual([{ field: 'accidentDate', message: '出险日期格式不正确' }]);
    expect((await c.call('GET', '/api/orders?createdAtRange=0000-01-01,9999-12-31')).status).toBe(400);
  });

  it('masked ID numbers can only be matched exactly, not narrowed digit by digit', async () => {
    await c.login();
    const [p] = await c.server.db.query<{ id_card: string; id: number }>('SELECT id, id_card FROM insured_persons WHERE business_id = $1 LIMIT 1', [BIZ_ADMIN]);
    const sub = await c.call('GET', `/api/insured-persons?idCard=${p.id_card.slice(0, 7)}`);
    expect(sub.status).toBe(400);
    expect(sub.body).toMatchObject({ message: '身份证号仅支持完整号码精确查询', errors: [{ field: 'idCard', message: '身份证号仅支持完整号码精确查询' }] });
    const exact = await c.call('GET', `/api/insured-persons?idCard=${p.id_card.toLowerCase()}`);
    expect(exact.status).toBe(200);
    expect(exact.body.data.list.map((r: { id: number }) => r.id)).toEqual([p.id]);
  });
});
