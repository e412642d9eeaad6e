import { resolve } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../db.ts';
import { earliestCoverStart, hashRequest, isUniqueViolation, withIdempotency } from '../domain/index.ts';
import { loadEntities } from '../entity/load.ts';
import { getRow } from '../entity/query.ts';
import { badInput, forbidden, HttpError, INVALID_INPUT, notFound, ok } from '../http/errors.ts';
import type { Business } from '../http/types.ts';
import { AutoInsureStatus, missingInfo, transition, type AutoInsureAction, type PersonInfo } from '../../shared/auto-insure.ts';
import { ruleMessage } from '../../shared/entity/messages.ts';
import { checkObject, normalizePayload } from '../../shared/entity/rules.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { idempotencyKey } from './idempotency-key.ts';

/**
 * Insured-person actions of attendance insurance (docs/auto-insure.md): complete or correct a person's
 * information, start and stop automatic insurance. Each runs in one transaction with the person's row
 * locked and moves the status only as src/shared/auto-insure.ts allows; a refused move is a 409 and
 * changes nothing. Inputs are checked by the insured-person entity's own rules.
 */

/** The person's fields a user may complete or correct (the entity's input fields). */
export const INFO_FIELDS = ['name', 'idCard', 'phone', 'jobType'] as const;

interface PersonRow {
  id: number;
  name: string;
  id_card: string;
  phone: string;
  job_type: string;
  auto_status: string | null;
}

const conflict = (message: string) => new HttpError(409, 40900, message);

export default async function insuredPersonRoutes(app: FastifyInstance, opts: { schemaRoot?: string } = {}) {
  const { db } = app.deps;
  const entity: EntitySchema = loadEntities(opts.schemaRoot ?? resolve(import.meta.dirname, '../../..'), { validate: false }).registry.get('insured-person');

  async function lockPerson(tx: Queryable, biz: Business, rawId: string): Promise<PersonRow> {
    const id = Number(rawId);
    const rows = Number.isInteger(id) && id >= 1 && id <= 2147483647
      ? await tx.query<PersonRow>(
          'SELECT id, name, id_card, phone, job_type, auto_status FROM insured_persons WHERE business_id = $1 AND id = $2 FOR UPDATE',
          [biz.businessId, id],
        )
      : [];
    if (!rows[0]) throw notFound(`当前企业下不存在该参保人员（ID：${rawId}）`);
    return rows[0];
  }

  const infoOf = (p: PersonRow): PersonInfo => ({ name: p.name, idCard: p.id_card, phone: p.phone, jobType: p.job_type });
  const statusOf = (p: PersonRow): AutoInsureStatus => (p.auto_status === null ? AutoInsureStatus.InfoIncomplete : (Number(p.auto_status) as AutoInsureStatus));

  /** The person as the list shows it, plus what is still missing for automatic insurance. */
  async function answer(tx: Queryable, biz: Business, id: number) {
    const row = await getRow(tx, entity, biz.businessId, id);
    const full = (await tx.query<PersonRow>('SELECT id, name, id_card, phone, job_type, auto_status FROM insured_persons WHERE id = $1', [id]))[0];
    return { ...row, missing: missingInfo(infoOf(full)) };
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
    const input = normalizePayload(body) as Partial<Record<(typeof INFO_FIELDS)[number], string>>;
    const errors = checkObject(entity, input, { mode: 'update', fields: [...INFO_FIELDS] });
    if (errors.length) throw badInput(INVALID_INPUT, errors);
    const person = await lockPerson(tx, biz, id);
    const info: PersonInfo = {
      name: input.name ?? person.name,
      idCard: input.idCard?.toUpperCase() ?? person.id_card,
      phone: input.phone ?? person.phone,
      jobType: input.jobType ?? person.job_type,
    };
    if (info.idCard !== person.id_card) {
      const taken = await tx.query('SELECT 1 FROM insured_persons WHERE business_id = $1 AND id_card = $2 AND id <> $3', [biz.businessId, info.idCard, person.id]);
      if (taken.length) throw badInput(INVALID_INPUT, [{ field: 'idCard', message: ruleMessage(entity.fields.idCard, 'unique') }]);
    }
    const t = transition(statusOf(person), 'edit', info, earliestCoverStart());
    if (!t.ok) throw conflict(t.message);
    try {
      await tx.query(
        'UPDATE insured_persons SET name = $3, id_card = $4, phone = $5, job_type = $6, auto_status = $7 WHERE business_id = $1 AND id = $2',
        [biz.businessId, person.id, info.name, info.idCard, info.phone ?? '', info.jobType ?? '', String(t.status)],
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw badInput(INVALID_INPUT, [{ field: 'idCard', message: ruleMessage(entity.fields.idCard, 'unique') }]);
      throw err;
    }
    return answer(tx, biz, person.id);
  });

  const move = (verb: 'start' | 'stop', summary: string) =>
    action('POST', `/api/insured-persons/:id/${verb}`, summary, async (tx, biz, id) => {
      const person = await lockPerson(tx, biz, id);
      const t = transition(statusOf(person), verb as AutoInsureAction, infoOf(person), earliestCoverStart());
      if (!t.ok) throw conflict(t.message);
      await tx.query('UPDATE insured_persons SET auto_status = $3 WHERE business_id = $1 AND id = $2', [biz.businessId, person.id, String(t.status)]);
      return answer(tx, biz, person.id);
    });
  move('start', '开启自动投保');
  move('stop', '停止自动投保');
}
