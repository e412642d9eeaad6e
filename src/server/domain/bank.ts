import type { Db, Queryable } from '../db.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { pickWritable } from '../entity/record.ts';
import { repoEntities } from '../entity/repo.ts';
import { insertRow } from '../entity/write.ts';
import { DomainError, isUniqueViolation } from './errors.ts';
import type { BizRef } from './util.ts';
import type { BankAccountInput } from '../../generated/entities.ts';

// The bank-account entity's input, generated from schemas/entities/bank-account.json (npm run codegen).
export type { BankAccountInput };

/**
 * Serialises all bank-account writes of one business on its row (SELECT … FOR UPDATE): the second of
 * two parallel writes waits here and then sees the first one's accounts, so demoting the old default
 * before promoting the new one never collides on bank_accounts_one_default. There is no retry: a
 * statement that fails inside a PostgreSQL transaction aborts it (and these functions usually run in
 * the route's transaction, with its idempotency record), so a retry could only fail again.
 */
async function lockBusiness(tx: Queryable, businessId: string): Promise<{ name: string }> {
  const rows = await tx.query<{ name: string }>('SELECT name FROM businesses WHERE id = $1 FOR UPDATE', [businessId]);
  if (!rows[0]) throw new DomainError(404, '企业不存在');
  return rows[0];
}

/** A name as compared with the business's: no spaces, parentheses in their full-width form. */
const asName = (s: string): string => s.replace(/\s+/g, '').replace(/\(/g, '（').replace(/\)/g, '）');

/**
 * The account's own rules, checked with the business row locked (so two parallel requests cannot both
 * add one number): the account name is the business's name, and a number is added once per business.
 */
async function checkAccount(tx: Queryable, businessId: string, businessName: string, accountName: string, accountNo: string): Promise<void> {
  if (asName(accountName) !== asName(businessName)) {
    throw new DomainError(400, `账户名称须与企业名称「${businessName}」一致`, 'accountName');
  }
  const taken = await tx.query('SELECT 1 FROM bank_accounts WHERE business_id = $1 AND account_no = $2', [businessId, accountNo]);
  if (taken[0]) throw new DomainError(409, '该银行账号已添加，不能重复添加', 'accountNo');
}

/** A default-index collision (only a writer that bypasses lockBusiness can cause one) as a 409 to retry. */
async function oneDefault<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err, 'bank_accounts_one_default')) throw new DomainError(409, '默认账户正在被修改，请稍后重试');
    throw err;
  }
}

/**
 * Adds an account with every field of the bank-account entity the input gives; the first one of a
 * business is the default, and a new default demotes the others.
 */
export async function addBankAccount(
  db: Db,
  biz: BizRef,
  input: BankAccountInput & Record<string, unknown>,
  entity: EntitySchema = repoEntities().registry.get('bank-account'),
): Promise<{ id: number; isDefault: boolean }> {
  const accountNo = String(input.accountNo ?? '').replace(/[\s-]/g, '');
  if (!/^\d{8,30}$/.test(accountNo)) throw new DomainError(400, '银行账号应为 8–30 位数字', 'accountNo');
  return oneDefault(() =>
    db.tx(async (tx) => {
      const business = await lockBusiness(tx, biz.businessId);
      await checkAccount(tx, biz.businessId, business.name, String(input.accountName ?? ''), accountNo);
      const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM bank_accounts WHERE business_id = $1', [biz.businessId]);
      const makeDefault = input.isDefault === true || n === 0;
      if (makeDefault) await tx.query('UPDATE bank_accounts SET is_default = false WHERE business_id = $1 AND is_default', [biz.businessId]);
      const id = await insertRow(tx, entity, biz.businessId, { ...pickWritable(entity, input), accountNo, isDefault: makeDefault });
      return { id, isDefault: makeDefault };
    }),
  );
}

/** Makes one account the default (two statements: demote, then promote — the index is checked per row). */
export async function setDefaultBank(db: Db, biz: BizRef, id: number): Promise<void> {
  await oneDefault(() =>
    db.tx(async (tx) => {
      await lockBusiness(tx, biz.businessId);
      const found = await tx.query('SELECT id FROM bank_accounts WHERE business_id = $1 AND id = $2', [biz.businessId, id]);
      if (!found[0]) throw new DomainError(404, '银行账户不存在');
      await tx.query('UPDATE bank_accounts SET is_default = false WHERE business_id = $1 AND is_default AND id <> $2', [biz.businessId, id]);
      await tx.query('UPDATE bank_accounts SET is_default = true WHERE business_id = $1 AND id = $2', [biz.businessId, id]);
    }),
  );
}

/** Deletes an account; when it was the default, the oldest remaining account becomes the default. */
export async function deleteBankAccount(db: Db, biz: BizRef, id: number): Promise<void> {
  await db.tx(async (tx) => {
    await lockBusiness(tx, biz.businessId);
    const del = await tx.query<{ is_default: boolean }>(
      'DELETE FROM bank_accounts WHERE business_id = $1 AND id = $2 RETURNING is_default',
      [biz.businessId, id],
    );
    if (!del[0]) throw new DomainError(404, '银行账户不存在');
    if (del[0].is_default) {
      await tx.query(
        `UPDATE bank_accounts SET is_default = true WHERE id = (
           SELECT id FROM bank_accounts WHERE business_id = $1 ORDER BY created_at, id LIMIT 1)`,
        [biz.businessId],
      );
    }
  });
}
