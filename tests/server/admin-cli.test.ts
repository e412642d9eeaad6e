/**
 * `npm run admin`: the commands run in-process (adminMain, what src/server/admin.ts calls) on the
 * embedded database in DATA_DIR; the real command is spawned once (the last case), so its exit code and
 * output are proven end to end without paying a tsx start-up per case.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/server/db.ts';
import { runAdmin, useSmsDouble } from './deploy-helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'admin-cli-'));
const DATA_DIR = join(dir, 'pglite');

type Result = Awaited<ReturnType<typeof runAdmin>>;

/** `npm run admin -- …` in this process on the embedded database in DATA_DIR. */
const admin = (args: string[], env: Record<string, string> = {}) => runAdmin(args, { DATABASE_URL: '', APP_ENV: '', DATA_DIR, ...env });

/** The real `npm run admin -- …` (tsx src/server/admin.ts) in its own process. */
async function spawnAdmin(args: string[]): Promise<Result> {
  try {
    const r = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/admin.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', APP_ENV: '', DATA_DIR },
    });
    return { code: 0, out: r.stdout.trim(), err: r.stderr.trim() };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout.trim(), err: x.stderr.trim() };
  }
}

async function inDb<T>(fn: (db: Awaited<ReturnType<typeof openDb>>) => Promise<T>): Promise<T> {
  const db = await openDb({ dataDir: DATA_DIR });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run admin (onboarding from the command line, embedded database)', () => {
  const sms = useSmsDouble();

  it('creates a business on an empty database, adds a user, sends the set-password code through SMS_HTTP_URL, unlocks', async () => {
    const made = await admin(['create-business', '--name', '杭州云帆物流有限公司', '--charge-form', 'postpaid', '--tax-no', '91330106MA2CD7YQ8L', '--json']);
    expect(made.code, made.err).toBe(0);
    const biz = JSON.parse(made.out);
    expect(biz).toEqual({ id: 'B10001', name: '杭州云帆物流有限公司', chargeForm: 'postpaid', servicePacks: [], taxNo: '91330106MA2CD7YQ8L' });

    const user = await admin(['add-user', '--phone', '13812345678', '--business', biz.id, '--role', 'operator']);
    expect(user.code, user.err).toBe(0);
    expect(user.out).toBe(`13812345678 已加入 ${biz.id}，角色 operator（新账号，尚无密码：请发送设置密码的验证码）`);

    // Production (no APP_ENV) without an SMS provider: refused, no code kept.
    const refused = await admin(['invite', '--phone', '13812345678']);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('未完成：未配置短信服务（SMS_HTTP_URL），无法发送设置密码的验证码');
    expect(await inDb(async (db) => (await db.query('SELECT 1 FROM sms_codes')).length)).toBe(0);

    const sent = await admin(['invite', '--phone', '13812345678', '--json'], { SMS_HTTP_URL: sms.url, SMS_HTTP_TOKEN: 'k' });
    expect(sent.code, sent.err).toBe(0);
    expect(JSON.parse(sent.out)).toEqual({ phone: '13812345678', validHours: 72 });
    expect(sms.requests.at(-1)!.body).toMatchObject({ phone: '13812345678', purpose: 'set-password' });

    await inDb((db) => db.query(`INSERT INTO rate_limits (key, window_start, count) VALUES ('login-until:13812345678@10.0.0.9', now() + interval '10 minutes', 1)`));
    const unlocked = await admin(['unlock', '--phone', '13812345678']);
    expect(unlocked.code, unlocked.err).toBe(0);
    expect(await inDb(async (db) => (await db.query(`SELECT 1 FROM rate_limits WHERE key LIKE 'login-%13812345678%'`)).length)).toBe(0);
  }, 300_000);

  it('refuses bad input with exit code 1 and stores nothing; usage errors exit 2', async () => {
    const bad = await admin(['create-business', '--name', '某某\u202e公司', '--charge-form', 'prepaid', '--tax-no', '91330106MA2CD7YQ9X']);
    expect(bad.code).toBe(1);
    expect(bad.err).toBe('未完成：企业名称不能包含控制字符或不可见字符');
    expect(await inDb(async (db) => (await db.query('SELECT 1 FROM businesses')).length)).toBe(1);
    const usage = await admin(['delete-everything']);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/^unknown command: delete-everything\nusage: npm run admin/);
  }, 300_000);

  it('puts a plan on sale (stored through the plan entity, money in cents); a bad age range or a taken code stores nothing', async () => {
    const args = ['add-plan', '--code', 'emp-60', '--name', '雇主责任险·标准版（60万）', '--unit', 'month', '--price', '20.5', '--min-age', '16', '--max-age', '65', '--claim-limit', '600000'];
    const added = await admin(args);
    expect(added.code, added.err).toBe(0);
    expect(added.out).toBe('方案已上架：emp-60 雇主责任险·标准版（60万）（按月 ¥20.50，16–65 岁）');
    const rows = () => inDb((db) => db.query<Record<string, unknown>>('SELECT code, unit, price_cents, min_age, max_age, claim_limit_cents FROM plans ORDER BY code'));
    expect(await rows()).toEqual([{ code: 'emp-60', unit: 'month', price_cents: 2050, min_age: 16, max_age: 65, claim_limit_cents: 60_000_000 }]);
    const again = await admin(args);
    expect(again.code).toBe(1);
    const reversed = await admin(['add-plan', '--code', 'day-1', '--name', '日单险', '--unit', 'day', '--price', '3', '--min-age', '70', '--max-age', '16', '--claim-limit', '100000']);
    expect(reversed.code).toBe(1);
    expect(reversed.err).toBe('未完成：最高投保年龄不能小于最低投保年龄');
    expect((await rows()).length).toBe(1);
  }, 300_000);

  it('the real command (its own process) refuses to open the embedded database while another process has it open, exit code 1', async () => {
    const db = await openDb({ dataDir: DATA_DIR });
    try {
      const r = await spawnAdmin(['unlock', '--phone', '13812345678']);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`the embedded database ${DATA_DIR} is open in process ${process.pid}`);
    } finally {
      await db.close();
    }
  }, 300_000);
});
