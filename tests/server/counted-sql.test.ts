/**
 * Which counter table answers a list's exact total (count.ts countedSql): the one with the fewest keys,
 * and of those the per-month table when no filter is on its month. The totals themselves are checked
 * against the rows in entity-lists.test.ts and the counters against GROUP BYs in cover-status.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { loadSchemaFiles } from '../../src/schema/load-node';
import { buildEntityRegistry } from '../../src/shared/entity/registry';
import { parseFilters } from '../../src/server/entity/filters';
import { countedSql } from '../../src/server/entity/count';

const order = buildEntityRegistry(loadSchemaFiles(process.cwd()).files).get('order')!;
const today = () => '2026-11-29';

function sqlFor(q: Record<string, string>): string | undefined {
  const params: unknown[] = ['B1'];
  const filters = parseFilters(order, q, (v) => `$${params.push(v)}`, today);
  return countedSql(order, filters, today);
}

describe('the counter table of a total', () => {
  it('reads the per-month counts for a plan over all dates, the per-day counts for a day range', () => {
    expect(sqlFor({ productName: '雇主' })).toContain('FROM orders_n_created_at_month_product_name WHERE');
    const ranged = sqlFor({ productName: '雇主', createdAt: '2026-01-02,2026-01-05' });
    expect(ranged).toContain('FROM orders_n_created_at_day_product_name WHERE');
    expect(ranged).not.toContain('_month');
    // No filter, or one on the key of a one-key table: a one-key table (payment status: 3 rows a business).
    expect(sqlFor({})).toContain('FROM orders_n_pay_status WHERE business_id = $1)');
    expect(sqlFor({ payStatus: 'paid' })).toContain('FROM orders_n_pay_status WHERE');
  });
});
