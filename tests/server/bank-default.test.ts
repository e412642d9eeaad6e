import { describe, expect, it } from 'vitest';
import { addBankAccount, setDefaultBank } from '../../src/server/domain/bank.ts';
import { hashRequest, withIdempotency } from '../../src/server/domain/idempotency.ts';
import { count, makeBusiness, settleDomain, targets, useTargetDb } from './money-helpers.ts';

const account = (i: number, name: string) => ({ accountName: name, bankName: '中国银行', accountNo: `62166101${String(i).padStart(8, '0')}`, isDefault: true });

for (const t of targets()) {
  describe(`default bank account under parallel writes inside the route's transaction (${t.name})`, () => {
    const db = useTargetDb(t);

    it('10 parallel "add as default", each in its own request transaction with an idempotency record: all stored, one default', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'postpaid' });
      const userId = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
      // The shape of POST /api/bank-accounts with an Idempotency-Key: the domain call runs in the key's transaction.
      const { ok, errors } = await settleDomain(
        Array.from({ length: 10 }, (_, i) =>
          withIdempotency(db, { userId, key: `bank-${biz.businessId}-${i}`, method: 'POST', path: '/api/bank-accounts', requestHash: hashRequest(account(i, biz.name)) }, async (tx) => ({
            status: 200,
            body: await addBankAccount(tx, biz, account(i, biz.name)),
          })),
        ),
      );
      expect(errors).toEqual([]);
      expect(ok).toHaveLength(10);
      expect(await count(db, 'SELECT count(*) FROM bank_accounts WHERE business_id = $1', [biz.businessId])).toBe(10);
      expect(await count(db, 'SELECT count(*) FROM bank_accounts WHERE business_id = $1 AND is_default', [biz.businessId])).toBe(1);
      expect(await count(db, 'SELECT count(*) FROM idempotency_keys WHERE user_id = $1 AND status = 200', [userId])).toBe(10);

      // Parallel set-default, each in an outer transaction: every one succeeds, one default remains (the last to commit).
      const ids = ok.map((r) => (r.body as { id: number }).id);
      const set = await settleDomain(ids.map((id) => db.tx((tx) => setDefaultBank(tx, biz, id))));
      expect(set.errors).toEqual([]);
      expect(await count(db, 'SELECT count(*) FROM bank_accounts WHERE business_id = $1 AND is_default', [biz.businessId])).toBe(1);
    });
  });
}
