/**
 * Fastify plugin: REST routes for every stored entity with an `api` name. GET list/detail always
 * (when operations allow), POST/PUT/DELETE only where `operations` allow. Bodies are validated by
 * Ajv against toJsonSchema(entity) and Ajv errors are worded by messages.ts, so the text equals the
 * browser's. Routes carry config.auth = 'business': the gateway's auth plugin must set
 * request.user and request.business before the handler runs.
 *
 * Register it unwrapped (not via fastify-plugin) so its validator compiler and error handler stay
 * inside its own encapsulation context:  app.register(entityRoutes, { db, entities, hooks }).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Db } from '../db.ts';
import { createEntityAjv, mapAjvErrors } from '../../shared/entity/ajv.ts';
import { toJsonSchema } from '../../shared/entity/json-schema.ts';
import { apiListSchema, apiRowSchema } from '../http/openapi-responses.ts';
import type { EntityRegistry } from '../../shared/entity/registry.ts';
import { inputFields, normalizePayload } from '../../shared/entity/rules.ts';
import type { EntitySchema, FieldError } from '../../shared/entity/types.ts';
import { checkTransition, createHookRegistry, EntityError, type HookContext, type HookRegistry, type RequestBusiness, type RequestUser } from './hooks.ts';
import { getRow, listRows, QueryError, type ListQuery } from './query.ts';
import { deleteRow, insertRow, updateRow } from './write.ts';

export interface EntityRoutesOptions {
  db: Db;
  entities: EntityRegistry;
  hooks?: HookRegistry;
  /**
   * Entities whose writes are code routes (domain functions with money/cover rules, e.g. claims and
   * bank accounts in src/server/routes): no POST/PUT/DELETE/action route is registered for them here,
   * whatever their `operations` say. Lists and details are still served.
   */
  codeWrites?: readonly string[];
}

const INVALID_INPUT = '填写内容有误，请按提示修改';

function send(reply: FastifyReply, status: number, body: Record<string, unknown>) {
  return reply.code(status).header('cache-control', 'no-store').send(body);
}

/** Querystring schema: paging, sorting and one string per searchable field (ranges as "from,to"). */
export function listQuerySchema(e: EntitySchema): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    current: { type: 'string', title: '页码' },
    pageSize: { type: 'string', title: '每页条数（最多 100）' },
    sortField: { type: 'string', title: '排序字段', description: `可选：${['id', ...Object.entries(e.fields).filter(([, f]) => f.sort).map(([k]) => k)].join('、')}` },
    sortOrder: { type: 'string', title: '排序方向', description: 'ascend 或 descend' },
  };
  for (const [k, f] of Object.entries(e.fields)) {
    if (!f.search) continue;
    const how = f.search === 'range' ? '范围：开始,结束' : f.search === 'contains' && !f.mask ? '包含' : '精确匹配';
    properties[k] = { type: 'string', title: `${f.label}（${how}）` };
    if (f.search === 'range') properties[`${k}Range`] = { type: 'string', title: `${f.label}（同 ${k}，兼容旧参数）` };
  }
  return { type: 'object', properties };
}

function contextOf(req: FastifyRequest, entity: EntitySchema): HookContext {
  const r = req as unknown as { user?: RequestUser; business?: RequestBusiness };
  if (!r.business) throw new EntityError(403, '请先选择企业');
  return { entity, user: r.user, business: r.business };
}

/** Route schema with OpenAPI extras (tags, summary) that FastifySchema does not type. */
const doc = (s: Record<string, unknown>): FastifySchema => s as FastifySchema;

function parseId(raw: unknown): number {
  const id = Number(raw);
  return Number.isInteger(id) && id >= 1 && id <= 2147483647 ? id : 0;
}

export async function entityRoutes(app: FastifyInstance, opts: EntityRoutesOptions): Promise<void> {
  const { db } = opts;
  const hooks = opts.hooks ?? createHookRegistry();
  const ajv = createEntityAjv();
  app.setValidatorCompiler(({ schema }) => ajv.compile(schema as object));

  app.setErrorHandler((err, req, reply) => {
    const entity = (req.routeOptions.config as { entity?: EntitySchema }).entity;
    const e = err as Error & { validation?: Parameters<typeof mapAjvErrors>[1]; validationContext?: string };
    if (e.validation && entity) {
      const errors: FieldError[] =
        e.validationContext === 'body' ? mapAjvErrors(inputFields(entity), e.validation) : [{ field: 'query', message: '查询条件格式不正确' }];
      return send(reply, 400, { code: 40000, message: e.validationContext === 'body' ? INVALID_INPUT : errors[0].message, errors });
    }
    if (err instanceof QueryError) return send(reply, 400, { code: 40000, message: err.message, errors: [{ field: err.field, message: err.message }] });
    if (err instanceof EntityError) {
      return send(reply, err.status, { code: err.code, message: err.message, ...(err.errors ? { errors: err.errors } : {}) });
    }
    throw err;
  });

  const notFound = (e: EntitySchema, id: unknown) => new EntityError(404, `当前企业下不存在该${e.label}（ID：${String(id)}）`);
  const normalizeBody = async (req: FastifyRequest) => {
    const b = req.body;
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw new EntityError(400, '请求体必须是 JSON 对象');
    req.body = normalizePayload(b as Record<string, unknown>);
  };

  for (const entity of opts.entities.stored()) {
    if (!entity.api) continue;
    const base = `/api/${entity.api}`;
    const ops = { list: true, read: true, ...entity.operations };
    const writes = !opts.codeWrites?.includes(entity.name);
    const h = () => hooks.get(entity.name);
    const config = { auth: 'business' as const, entity };
    const tags = [entity.label];
    const row = { data: apiRowSchema(entity) };

    if (ops.list) {
      app.get(base, { config: { ...config, response: { data: apiListSchema(entity) } }, schema: doc({ tags, summary: `${entity.label}列表`, querystring: listQuerySchema(entity) }) }, async (req) => {
        const ctx = contextOf(req, entity);
        return { code: 0, data: await listRows(db, entity, ctx.business.businessId, req.query as ListQuery), message: 'ok' };
      });
    }
    if (ops.read) {
      app.get(`${base}/:id`, { config: { ...config, response: row }, schema: doc({ tags, summary: `${entity.label}详情` }) }, async (req) => {
        const ctx = contextOf(req, entity);
        const { id } = req.params as { id: string };
        const row = await getRow(db, entity, ctx.business.businessId, parseId(id));
        if (!row) throw notFound(entity, id);
        return { code: 0, data: row, message: 'ok' };
      });
    }
    if (writes && ops.create) {
      const body = toJsonSchema(entity, { mode: 'create' });
      app.post(base, { config: { ...config, response: row }, preValidation: normalizeBody, schema: doc({ tags, summary: `新增${entity.label}`, body }) }, async (req) => {
        const ctx = contextOf(req, entity);
        const id = await db.tx(async (tx) => {
          let input = req.body as Record<string, unknown>;
          input = (await h().beforeCreate?.(ctx, input, tx)) ?? input;
          const newId = await insertRow(tx, entity, ctx.business.businessId, input);
          const row = await getRow(tx, entity, ctx.business.businessId, newId, { unmasked: true });
          await h().afterCreate?.(ctx, row!, tx);
          return newId;
        });
        return { code: 0, data: await getRow(db, entity, ctx.business.businessId, id), message: 'ok' };
      });
    }
    if (writes && ops.update) {
      const body = toJsonSchema(entity, { mode: 'update' });
      app.put(`${base}/:id`, { config: { ...config, response: row }, preValidation: normalizeBody, schema: doc({ tags, summary: `修改${entity.label}`, body }) }, async (req) => {
        const ctx = contextOf(req, entity);
        const { id: rawId } = req.params as { id: string };
        const id = parseId(rawId);
        await db.tx(async (tx) => {
          const before = await getRow(tx, entity, ctx.business.businessId, id, { unmasked: true });
          if (!before) throw notFound(entity, rawId);
          let input = req.body as Record<string, unknown>;
          checkTransition(h(), entity, before, input);
          input = (await h().beforeUpdate?.(ctx, id, input, tx)) ?? input;
          await updateRow(tx, entity, ctx.business.businessId, id, input);
          await h().afterUpdate?.(ctx, (await getRow(tx, entity, ctx.business.businessId, id, { unmasked: true }))!, tx);
        });
        return { code: 0, data: await getRow(db, entity, ctx.business.businessId, id), message: 'ok' };
      });
    }
    if (writes && ops.delete) {
      app.delete(`${base}/:id`, { config: { ...config, response: { data: { type: 'object', description: '空对象' } } }, schema: doc({ tags, summary: `删除${entity.label}` }) }, async (req) => {
        const ctx = contextOf(req, entity);
        const { id: rawId } = req.params as { id: string };
        const id = parseId(rawId);
        await db.tx(async (tx) => {
          const before = await getRow(tx, entity, ctx.business.businessId, id, { unmasked: true });
          if (!before) throw notFound(entity, rawId);
          await h().beforeDelete?.(ctx, id, tx);
          await deleteRow(tx, entity, ctx.business.businessId, id);
          await h().afterDelete?.(ctx, before, tx);
        });
        return { code: 0, data: {}, message: 'ok' };
      });
    }
    for (const [name, action] of Object.entries(writes ? h().actions ?? {} : {})) {
      app.post(`${base}/:id/${name}`, { config, schema: doc({ tags, summary: `${entity.label}：${name}` }) }, async (req) => {
        const ctx = contextOf(req, entity);
        const id = parseId((req.params as { id: string }).id);
        const data = await db.tx((tx) => action(ctx, id, (req.body ?? {}) as Record<string, unknown>, tx));
        return { code: 0, data: data ?? {}, message: 'ok' };
      });
    }
  }
}
