import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/server/db.ts';
import { startServer, type StartServerOptions } from '../../src/server/server.ts';
import { migratedTemplate } from '../../src/server/migrated-template.ts';
import { REPO_ROOT } from '../../src/server/entity/repo.ts';

// What a seeded gateway holds: every row of the demo data's tables (a hash of each table's rows in id
// order), but the time the seed ran (created_at of the rows it stamps now: the template's is its hour's).
const TABLES = ['users', 'businesses', 'orders', 'insured_persons', 'insure_records', 'invoices', 'invoice_refunds', 'claims', 'bank_accounts', 'plans'];
const SNAPSHOT = `SELECT ${TABLES.map((t) => `(SELECT count(*) FROM ${t})::int AS ${t}, (SELECT md5(coalesce(string_agg((to_jsonb(x) - 'created_at')::text, '|' ORDER BY x.id), '')) FROM ${t} x) AS ${t}_rows`).join(', ')},
  (SELECT md5(coalesce(string_agg((to_jsonb(s) - 'created_at')::text, '|' ORDER BY s.business_id, s.month), '')) FROM statements s) AS statements`;

async function snapshot(opts: StartServerOptions) {
  const s = await startServer({ port: 0, ...opts });
  try {
    const [row] = await s.db.query<Record<string, unknown>>(SNAPSHOT);
    return row;
  } finally {
    await s.close();
    if (opts.db) await opts.db.close();
  }
}

describe('in-memory test gateways start from templates (migrated-template.ts)', () => {
  it('a seeded start leaves the seeded template; starts from it hold exactly the demo data a seed writes', async () => {
    expect(process.env.PGLITE_MEMORY_TEMPLATE).toBeTruthy();
    const fromTemplate = await snapshot({ dataDir: 'memory', seed: true });
    expect(migratedTemplate(REPO_ROOT, REPO_ROOT, 'seeded')?.blob).toBeDefined();
    expect(fromTemplate.users).toBeGreaterThan(0);
    expect(fromTemplate.orders).toBeGreaterThan(10);
    expect(await snapshot({ dataDir: 'memory', seed: true })).toEqual(fromTemplate);
    // Seeded here and now: a database handed in has no template.
    const migrated = await openDb({ dataDir: 'memory', template: migratedTemplate(REPO_ROOT, REPO_ROOT)?.blob });
    expect(await snapshot({ db: migrated, seed: true })).toEqual(fromTemplate);
    expect(await snapshot({ dataDir: 'memory' })).toMatchObject({ users: 0, orders: 0, insured_persons: 0 });
  }, 60_000);
});
