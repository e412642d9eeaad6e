import { randomBytes } from 'node:crypto';
import { openPostgres, type Db } from '../../src/server/db.ts';

/**
 * Opens PostgreSQL in a fresh schema of its own (search_path), dropped again on close, so test files that
 * run at the same time never share tables, and none touches another's (nor `public`, where pg_trgm lives).
 */
export async function openPgSchema(url: string, prefix = 'test'): Promise<Db> {
  const schema = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres(url);
  // pg_trgm belongs in public, put there before any test schema exists: created by the first test in its
  // own schema, it would go with that schema and take the other schemas' trigram indexes along. Another
  // process creating it at the same moment, or no privilege to, is no error here.
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public').catch(() => undefined);
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  const db = await openPostgres(u.toString());
  const close = db.close.bind(db);
  return Object.assign(db, {
    async close() {
      await close();
      const a = await openPostgres(url);
      await a.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await a.close();
    },
  });
}
