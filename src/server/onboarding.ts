/**
 * Onboarding without demo data: create a business, add a user to it with a role, send that user a
 * one-time code to set a password (through the configured SMS provider), unlock a locked account.
 * Used by the command line (`npm run admin -- …`, src/server/admin.ts) and the operator API
 * (routes/operator.ts); every refusal is a 400/404/409 with a Chinese message and stores nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db, Queryable } from './db.ts';
import { DomainError } from './domain/errors.ts';
import { REPO_ROOT } from './entity/repo.ts';
import { clearFailures } from './services/login-limits.ts';
import { INVITE_TTL_MS, issueCode } from './services/sms-codes.ts';
import type { SmsProvider } from './services/sms.ts';
import { FORMAT_CHECKS, charLength } from '../shared/entity/rules.ts';
import { forbiddenCharacter } from '../shared/checks.ts';
import { allRoutes } from '../schema/routes.ts';
import type { RouteNode } from '../schema/types.ts';

export const CHARGE_FORMS = ['prepaid', 'postpaid'] as const;
export const ROLES = ['admin', 'operator'] as const;
export type Role = (typeof ROLES)[number];

/** The service packs the console knows: every servicePackName in schemas/routes.json. */
export function knownServicePacks(root = REPO_ROOT): string[] {
  const file = JSON.parse(readFileSync(join(root, 'schemas/routes.json'), 'utf8')) as { routes: RouteNode[] };
  return [...new Set(allRoutes(file.routes).flatMap((r) => (r.servicePackName ? [r.servicePackName] : [])))].sort();
}

/** name, chargeForm, servicePacks (array or comma-separated), taxNo: as typed, checked here. */
export type NewBusiness = Record<string, unknown>;

export interface BusinessCreated {
  id: string;
  name: string;
  chargeForm: string;
  servicePacks: string[];
  taxNo: string;
}

const bad = (field: string, message: string) => new DomainError(400, message, field);
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

function checkBusiness(input: NewBusiness): Omit<BusinessCreated, 'id'> {
  const name = text(input.name);
  if (!name) throw bad('name', '请填写企业名称');
  if (charLength(name) > 100) throw bad('name', '企业名称不能超过 100 个字符');
  if (forbiddenCharacter(name, false)) throw bad('name', '企业名称不能包含控制字符或不可见字符');
  const chargeForm = text(input.chargeForm);
  if (!(CHARGE_FORMS as readonly string[]).includes(chargeForm)) throw bad('chargeForm', '收费方式只能是 prepaid（预付费）或 postpaid（后付费）');
  const taxNo = text(input.taxNo).toUpperCase();
  if (!taxNo || !FORMAT_CHECKS.taxNo!(taxNo)) throw bad('taxNo', '税号应为 15–20 位字母或数字');
  const raw = input.servicePacks ?? [];
  const list = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : null;
  if (!list || list.some((p) => typeof p !== 'string')) throw bad('servicePacks', '服务包格式不正确');
  const packs = [...new Set((list as string[]).map((p) => p.trim()).filter(Boolean))];
  const known = knownServicePacks();
  const unknown = packs.filter((p) => !known.includes(p));
  if (unknown.length) throw bad('servicePacks', `未知的服务包：${unknown.join('、')}（可选：${known.join('、') || '无'}）`);
  return { name, chargeForm, servicePacks: packs, taxNo };
}

/** Creates a business with a new id B<n> (balance 0). One business per tax number. */
export async function createBusiness(db: Db, input: NewBusiness): Promise<BusinessCreated> {
  const b = checkBusiness(input);
  return db.tx(async (tx) => {
    const same = await tx.query<{ id: string }>('SELECT id FROM businesses WHERE tax_no = $1', [b.taxNo]);
    if (same[0]) throw new DomainError(409, `税号 ${b.taxNo} 已属于企业 ${same[0].id}`, 'taxNo');
    // Ids continue after the largest B<number> (the demo businesses are B10001…); serialised by a lock.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('console:new-business'))`);
    const [{ next }] = await tx.query<{ next: string }>(
      `SELECT (GREATEST(10000, coalesce(max(substr(id, 2)::bigint), 0)) + 1)::text AS next FROM businesses WHERE id ~ '^B[0-9]{1,15}$'`,
    );
    const id = `B${next}`;
    await tx.query('INSERT INTO businesses (id, name, charge_form, service_packs, tax_no) VALUES ($1, $2, $3, $4, $5)', [
      id,
      b.name,
      b.chargeForm,
      b.servicePacks,
      b.taxNo,
    ]);
    return { id, ...b };
  });
}

export interface UserAdded {
  userId: number;
  phone: string;
  businessId: string;
  role: Role;
  /** The account was created now (it has no password until the user sets one). */
  created: boolean;
}

/** Password hash of an account that cannot sign in until the user sets a password with a code. */
const NO_PASSWORD = '!';

/** Adds a phone to a business with a role; creates the account when the phone has none; a second call changes the role. */
export async function addUser(db: Db, input: Record<string, unknown>): Promise<UserAdded> {
  const phone = text(input.phone);
  if (!FORMAT_CHECKS.phone!(phone)) throw bad('phone', '请输入正确的 11 位手机号');
  const businessId = text(input.businessId);
  const role = text(input.role) as Role;
  if (!ROLES.includes(role)) throw bad('role', '角色只能是 admin（企业管理员）或 operator（操作员）');
  return db.tx(async (tx) => {
    const biz = await tx.query('SELECT id FROM businesses WHERE id = $1', [businessId]);
    if (!biz[0]) throw new DomainError(404, `企业 ${businessId || '（未填写）'} 不存在`, 'businessId');
    const made = await tx.query<{ id: number }>(
      'INSERT INTO users (phone, password_hash) VALUES ($1, $2) ON CONFLICT (phone) DO NOTHING RETURNING id',
      [phone, NO_PASSWORD],
    );
    const [user] = made[0] ? made : await tx.query<{ id: number }>('SELECT id FROM users WHERE phone = $1', [phone]);
    await tx.query(
      `INSERT INTO user_businesses (user_id, business_id, user_type) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, business_id) DO UPDATE SET user_type = EXCLUDED.user_type`,
      [user.id, businessId, role],
    );
    return { userId: Number(user.id), phone, businessId, role, created: Boolean(made[0]) };
  });
}

/**
 * Sends a user a one-time code (valid INVITE_TTL_MS) with which they set their password on the
 * console's 忘记密码 page. Refused without an SMS provider: the code is never shown to the operator.
 */
export async function inviteUser(
  db: Db,
  sms: SmsProvider | null,
  input: { phone: unknown; consoleUrl?: string },
): Promise<{ phone: string; validHours: number }> {
  const phone = text(input.phone);
  if (!FORMAT_CHECKS.phone!(phone)) throw bad('phone', '请输入正确的 11 位手机号');
  if (!sms) throw new DomainError(503, '未配置短信服务（SMS_HTTP_URL），无法发送设置密码的验证码');
  const rows = await db.query<{ name: string }>(
    `SELECT b.name FROM users u JOIN user_businesses ub ON ub.user_id = u.id JOIN businesses b ON b.id = ub.business_id
      WHERE u.phone = $1 ORDER BY b.id LIMIT 1`,
    [phone],
  );
  if (!rows[0]) throw new DomainError(404, `手机号 ${phone} 尚未加入任何企业，请先添加用户`, 'phone');
  try {
    await issueCode(db, sms, phone, 'set-password', INVITE_TTL_MS, { businessName: rows[0].name, consoleUrl: input.consoleUrl });
  } catch (err) {
    throw new DomainError(503, `短信发送失败，未保存验证码：${err instanceof Error ? err.message : String(err)}`);
  }
  return { phone, validHours: INVITE_TTL_MS / 3600_000 };
}

/** Lifts a sign-in lock-out of an account (and its failure count); the source-address limits stay. */
export async function unlockUser(db: Queryable, input: Record<string, unknown>): Promise<{ phone: string }> {
  const phone = text(input.phone);
  if (!FORMAT_CHECKS.phone!(phone)) throw bad('phone', '请输入正确的 11 位手机号');
  const users = await db.query('SELECT id FROM users WHERE phone = $1', [phone]);
  if (!users[0]) throw new DomainError(404, `手机号 ${phone} 没有账号`, 'phone');
  await clearFailures(db, phone);
  return { phone };
}
