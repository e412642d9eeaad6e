import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../db.ts';
import { autoInsureAges, earliestCoverStart, hashRequest, isUniqueViolation, lockPersons, withIdempotency, type StoredPerson } from '../domain/index.ts';
import { getRow } from '../entity/query.ts';
import { mergeRecord, recordset, storedJson, updateSet, writableKeys } from '../entity/record.ts';
import { badInput, forbidden, HttpError, INVALID_INPUT, notFound, ok } from '../http/errors.ts';
import type { Business } from '../http/types.ts';
import { AutoInsureStatus, missingInfo, statusReason, transition, type AutoInsureAction, type PersonInfo } from '../../shared/auto-insure.ts';
import { ruleMessage } from '../../shared/entity/messages.ts';
import { checkObject, normalizePayload } from '../../shared/entity/rules.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { idempotencyKey } from './idempotency-key.ts';

/**
 * Insured-person actions of attendance insurance (docs/auto-insure.md): complete or correct a person's
 * information, start and stop automatic insurance. Each runs in one transaction with the person's row
 * locked and moves the status only as src/shared/auto-insure.ts allows; a refused move is a 409 and
 * changes nothing. The information a user may edit is every writable field of the insured-person entity
 * (checked by its own rules, stored through entity/record.ts), so a field a configurator adds is edited here too.
 */

const conflict = (message: string) => new HttpError(409, 40900, message);

export default async function insuredPersonRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  const entity: EntitySchema = app.deps.entities.registry.get('insured-person');
  const keys = writableKeys(entity);

  async function lockPerson(tx: Queryable, biz: Business, rawId: string): Promise<StoredPerson> {
    const id = Number(rawId);
    const card = Number.isInteger(id) && id >= 1 && id <= 2147483647
      ? await tx.query<{ id_card: string }>('SELECT id_card FROM insured_persons WHERE business_id = $1 AND id = $2', [biz.businessId, id])
      : [];
    const rows = card[0] ? await lockPersons(tx, entity, biz.businessId, [card[0].id_card]) : [];
    if (!rows[0] || rows[0].id !== id) throw notFound(`当前企业下不存在该参保人员（ID：${rawId}）`);
    return rows[0];
  }

  const statusOf = (p: StoredPerson): AutoInsureStatus => (p.auto_status === null ? AutoInsureStatus.InfoIncomplete : (Number(p.auto_status) as AutoInsureStatus));

  /** The person as the list shows it, plus what is still missing for automatic insurance. */
  async function answer(tx: Queryable, biz: Business, person: StoredPerson, info: PersonInfo = person) {
    const row = await getRow(tx, entity, biz.businessId, person.id);
    return { ...row, missing: missingInfo(info) };
  }

  /** Registers a write: attendance pack required, one transaction, Idempotency-Key honoured. */
  function action(method: 'POST' | 'PUT', url: string, summary: string, run: (tx: Db, biz: Business, id: string, body: Record<string, unknown>) => Promise<unknown>) {
    app.route({
      method,
      url,
      config: { auth: 'business' },
      schema: { tags: ['insured-persons'], summary } as never,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const biz = req.business;
        if (!biz.servicePacks.includes('attendance')) throw forbidden('当前企业未开通考勤服务包');
        const id = (req.params as { id: string }).id;
        const body = (req.body ?? {}) as Record<string, unknown>;
        const key = idempotencyKey(req);
        if (!key) return db.tx(async (tx) => ok(await run(tx, biz, id, body)));
        const r = await withIdempotency(
          db,
          { userId: req.user.id, key, method, path: req.routeOptions.url ?? url, requestHash: hashRequest({ biz: biz.businessId, id, body }) },
          async (tx) => ({ status: 200, body: ok(await run(tx, biz, id, body)) }),
        );
        reply.header('idempotent-replayed', String(r.replayed));
        return reply.status(r.status).send(r.body);
      },
    });
  }

  // Complete or correct information: entity rules, then the `edit` transition (0/3 → 1 when now acceptable).
  action('PUT', '/api/insured-persons/:id/info', '完善或修改参保人员信息', async (tx, biz, id, body) => {
    // A blank value means "not given" (the masked ID number is only sent when re-typed): it keeps what is stored.
    const input = normalizePayload(body);
    const errors = checkObject(entity, input, { mode: 'update', fields: keys });
    if (errors.length) throw badInput(INVALID_INPUT, errors);
    const person = await lockPerson(tx, biz, id);
    const info = mergeRecord(keys, { ...input, idCard: typeof input.idCard === 'string' ? input.idCard.toUpperCase() : undefined }, person) as PersonInfo;
    if (info.idCard !== person.idCard) {
      const taken = await tx.query('SELECT 1 FROM insured_persons WHERE business_id = $1 AND id_card = $2 AND id <> $3', [biz.businessId, info.idCard, person.id]);
      if (taken.length) throw badInput(INVALID_INPUT, [{ field: 'idCard', message: ruleMessage(entity.fields.idCard, 'unique') }]);
    }
    // Automatic insurance buys the day plans: their insurable ages judge the information (docs/auto-insure.md).
    const onDate = earliestCoverStart();
    const ages = await autoInsureAges(tx);
    const t = transition(statusOf(person), 'edit', info, onDate, ages);
    if (!t.ok) throw conflict(t.message);
    try {
      await tx.query(
        `UPDATE insured_persons p SET ${updateSet(entity, keys, { from: 'u', fromKeys: true })}, auto_status = $3, auto_reason = $5
           FROM ${recordset(entity, keys, '$4', 'u')}
          WHERE p.business_id = $1 AND p.id = $2`,
        [biz.businessId, person.id, String(t.status), storedJson(entity, [info], keys), statusReason(t.status, info, onDate, ages)],
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw badInput(INVALID_INPUT, [{ field: 'idCard', message: ruleMessage(entity.fields.idCard, 'unique') }]);
      throw err;
    }
    return answer(tx, biz, person, info);
  });

  const move = (verb: 'start' | 'stop', summary: string) =>
    action('POST', `/api/insured-persons/:id/${verb}`, summary, async (tx, biz, id) => {
      const person = await lockPerson(tx, biz, id);
      const onDate = earliestCoverStart();
      const ages = await autoInsureAges(tx);
      const t = transition(statusOf(person), verb as AutoInsureAction, person, onDate, ages);
      if (!t.ok) throw conflict(t.message);
      await tx.query('UPDATE insured_persons SET auto_status = $3, auto_reason = $4 WHERE business_id = $1 AND id = $2', [
        biz.businessId,
        person.id,
        String(t.status),
        statusReason(t.status, person, onDate, ages),
      ]);
      return answer(tx, biz, person);
    });
  move('start', '开启自动投保');
  move('stop', '停止自动投保');
}
