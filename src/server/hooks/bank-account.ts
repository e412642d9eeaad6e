/** Bank accounts: only admins write; the first account (or one marked default) becomes the default. */
import { EntityError, type EntityHooks, type HookContext } from '../entity/hooks.ts';

function requireAdmin(ctx: HookContext): void {
  if (ctx.business.userType !== 'admin') throw new EntityError(403, '仅企业管理员可操作');
}

export const bankAccountHooks: EntityHooks = {
  async beforeCreate(ctx, input, tx) {
    requireAdmin(ctx);
    const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM bank_accounts WHERE business_id = $1', [
      ctx.business.businessId,
    ]);
    const makeDefault = input.isDefault === true || n === 0;
    if (makeDefault) await tx.query('UPDATE bank_accounts SET is_default = false WHERE business_id = $1', [ctx.business.businessId]);
    return { ...input, isDefault: makeDefault };
  },
  async beforeDelete(ctx) {
    requireAdmin(ctx);
  },
  async afterDelete(ctx, row, tx) {
    if (row.isDefault !== true) return;
    await tx.query(
      `UPDATE bank_accounts SET is_default = true WHERE id = (
         SELECT id FROM bank_accounts WHERE business_id = $1 ORDER BY created_at, id LIMIT 1)`,
      [ctx.business.businessId],
    );
  },
};
