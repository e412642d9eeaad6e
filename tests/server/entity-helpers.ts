/** Test helpers for the entity layer: an auth stub plugin and a seeded PGlite/PostgreSQL database. */
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openPglite, type Db } from '../../src/server/db.ts';
import { openPgSchema } from './pg-schema.ts';
import { migrateEntities } from '../../src/server/entity/migrate.ts';
import { entityRoutes } from '../../src/server/entity/routes.ts';
import { ensureSerialSequence } from '../../src/server/entity/serial.ts';
import type { HookRegistry } from '../../src/server/entity/hooks.ts';
import type { EntityRegistry } from '../../src/shared/entity/registry.ts';

/** Test-only auth: routes with config.auth get request.user/business from x-test-* headers. */
export const testAuth = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (req, reply) => {
    const auth = (req.routeOptions.config as { auth?: string }).auth;
    if (!auth) return;
    const biz = req.headers['x-test-business'];
    if (!biz) return reply.code(401).send({ code: 40100, message: '请先登录' });
    const r = req as unknown as Record<string, unknown>;
    r.user = { id: 1, phone: '13800000000', family: 'f' };
    r.business = {
      businessId: String(biz),
      businessName: '测试企业',
      chargeForm: 'prepaid',
      userType: req.headers['x-test-user-type'] === 'operator' ? 'operator' : 'admin',
      servicePacks: [],
      balance: 0,
    };
  });
});

export async function openTestDb(url?: string): Promise<Db> {
  if (!url) return openPglite('memory');
  return openPgSchema(url, 'entity');
}

export async function seedBusinesses(db: Db): Promise<void> {
  await db.query(
    `INSERT INTO businesses (id, name, charge_form) VALUES ('B1','一号企业','prepaid'), ('B2','二号企业','postpaid') ON CONFLICT DO NOTHING`,
  );
}

export async function buildApp(db: Db, entities: EntityRegistry, hooks?: HookRegistry, migrationsDir?: string): Promise<FastifyInstance> {
  await migrateEntities(db, { entities: Object.values(entities.entities), migrationsDir });
  await ensureSerialSequence(db, []); // generated numbers (claimNo …) come from one sequence, as migrate() makes it
  await seedBusinesses(db);
  const app = Fastify();
  await app.register(testAuth);
  await app.register(entityRoutes, { db, entities, hooks });
  await app.ready();
  return app;
}
