/**
 * `npm run admin` (see admin.ts): the commands, callable in-process (tests) as adminMain(argv, io).
 * Onboarding from the command line, on the database the gateway uses (DATABASE_URL, else the embedded
 * database in DATA_DIR, which must not be open in a running gateway: use the operator API there).
 *
 *   npm run admin -- create-business --name 上海某某人力资源有限公司 --charge-form prepaid --service-packs attendance --tax-no 91310104MA1FL2XK3P
 *   npm run admin -- add-user --phone 13812345678 --business B10004 --role admin
 *   npm run admin -- invite --phone 13812345678 [--console-url https://console.example.com/]
 *   npm run admin -- unlock --phone 13812345678
 *   npm run admin -- add-plan --code emp-60 --name 雇主责任险·标准版（60万） --unit month --price 20 --min-age 16 --max-age 65 --claim-limit 600000
 *
 * `--json` prints the result as one JSON line. Exit code 0 on success, 1 on a refusal (message on
 * stderr), 2 on a usage error. The set-password code goes out through the configured SMS provider
 * (SMS_HTTP_URL); without one it is refused (in APP_ENV=development the development log is used).
 */
import { parseArgs } from 'node:util';
import { openDb, type Db } from './db.ts';
import { isDomainError } from './domain/errors.ts';
import { isProduction } from './environment.ts';
import { addUser, createBusiness, inviteUser, unlockUser } from './onboarding.ts';
import { addPlan } from './domain/plans.ts';
import { migrateAll } from './server.ts';
import { devSmsProvider, smsProviderFromEnv } from './services/sms.ts';

const USAGE = `usage: npm run admin -- <command> [options] [--json]
  create-business --name <企业名称> --charge-form prepaid|postpaid --tax-no <税号> [--service-packs attendance,…]
  add-user        --phone <手机号> --business <企业编号> --role admin|operator
  invite          --phone <手机号> [--console-url <控制台地址>]
  unlock          --phone <手机号>
  add-plan        --code <方案代码> --name <方案名称> --unit month|day --price <单价（元）> --min-age <岁> --max-age <岁> --claim-limit <赔付限额（元）>`;

const OPTIONS = {
  name: { type: 'string' },
  'charge-form': { type: 'string' },
  'tax-no': { type: 'string' },
  'service-packs': { type: 'string' },
  phone: { type: 'string' },
  business: { type: 'string' },
  role: { type: 'string' },
  'console-url': { type: 'string' },
  code: { type: 'string' },
  unit: { type: 'string' },
  price: { type: 'string' },
  'min-age': { type: 'string' },
  'max-age': { type: 'string' },
  'claim-limit': { type: 'string' },
  json: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** A usage error: exit code 2. */
class UsageError extends Error {}

const usage = (why: string): never => {
  throw new UsageError(`${why}\n${USAGE}`);
};

async function run(db: Db, command: string, values: Values): Promise<[string, unknown]> {
  switch (command) {
    case 'create-business': {
      const b = await createBusiness(db, { name: values.name, chargeForm: values['charge-form'], taxNo: values['tax-no'], servicePacks: values['service-packs'] });
      return [`企业已创建：${b.id} ${b.name}（${b.chargeForm === 'prepaid' ? '预付费' : '后付费'}，服务包：${b.servicePacks.join('、') || '无'}，税号 ${b.taxNo}）`, b];
    }
    case 'add-user': {
      const u = await addUser(db, { phone: values.phone, businessId: values.business, role: values.role });
      return [`${u.phone} 已加入 ${u.businessId}，角色 ${u.role}${u.created ? '（新账号，尚无密码：请发送设置密码的验证码）' : ''}`, u];
    }
    case 'invite': {
      const development = !isProduction();
      const sms = smsProviderFromEnv() ?? (development ? devSmsProvider('.data/sms-dev.log') : null);
      const r = await inviteUser(db, sms, { phone: values.phone, consoleUrl: values['console-url'] ?? process.env.PUBLIC_URL });
      return [`设置密码的验证码已发送到 ${r.phone}，${r.validHours} 小时内有效`, r];
    }
    case 'unlock': {
      const r = await unlockUser(db, { phone: values.phone });
      return [`${r.phone} 的登录锁定已解除`, r];
    }
    case 'add-plan': {
      const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
      const p = await addPlan(db, { code: values.code, name: values.name, unit: values.unit, price: num(values.price), minAge: num(values['min-age']), maxAge: num(values['max-age']), claimLimit: num(values['claim-limit']) });
      return [`方案已上架：${p.id} ${p.name}（${p.unit === 'month' ? '按月' : '按天'} ¥${(p.priceCents / 100).toFixed(2)}，${p.minAge}–${p.maxAge} 岁）`, p];
    }
    default:
      return usage(command ? `unknown command: ${command}` : 'missing command');
  }
}

/** Where adminMain writes (the console by default). */
export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

/** Runs one admin command; resolves to the exit code (0 done, 1 refused, 2 usage error). */
export async function adminMain(argv: string[], io: AdminIo = { out: console.log, err: console.error }): Promise<number> {
  let values: Values;
  let command: string;
  try {
    const parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
    values = parsed.values;
    command = parsed.positionals[0] ?? '';
    if (!['create-business', 'add-user', 'invite', 'unlock', 'add-plan'].includes(command)) usage(command ? `unknown command: ${command}` : 'missing command');
  } catch (err) {
    io.err(err instanceof UsageError ? err.message : `${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  let db: Db;
  try {
    db = await openDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.DATA_DIR || '.data/pglite' });
  } catch (err) {
    io.err(`Cannot open the database: ${(err as Error).message}`);
    return 1;
  }
  try {
    await migrateAll(db);
    const [text, result] = await run(db, command, values);
    io.out(values.json ? JSON.stringify(result) : text);
    return 0;
  } catch (err) {
    if (!isDomainError(err)) throw err;
    io.err(values.json ? JSON.stringify({ status: err.status, message: err.message, errors: err.errors }) : `未完成：${err.message}`);
    return 1;
  } finally {
    await db.close();
  }
}
