import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Db } from '../db.ts';
import {
  addBankAccount,
  applyInvoice,
  applyRefund,
  createClaim,
  createInsuranceBatch,
  deleteBankAccount,
  DomainError,
  hashRequest,
  withIdempotency,
  type InsureRow,
} from '../domain/index.ts';
import { parseAttachmentIds } from '../domain/attachments.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { entityRoutes } from '../entity/routes.ts';
import { getRow } from '../entity/query.ts';
import { toDbValue } from '../entity/write.ts';
import { defaultHooks } from '../hooks/index.ts';
import { forbidden, notFound, ok } from '../http/errors.ts';
import { requireAdmin } from '../http/auth.ts';
import type { Business } from '../http/types.ts';
import { entityInput } from './entity-input.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { yieldToLoop } from '../util.ts';

/**
 * Business writes that go through the domain functions (money, cover, default bank account), and the
 * entity layer's lists and details (src/server/entity/routes.ts) for every stored entity. Write bodies
 * are checked against the entity schemas (entity-input.ts); what the domain adds is business rules.
 */

/** Entities whose writes are the code routes below: entityRoutes registers none for them. */
export const CODE_WRITES = ['claim', 'bank-account', 'invoice', 'invoice-refund', 'insure-batch'] as const;

type Body = Record<string, unknown>;

interface Ctx {
  /** The transaction of the write, with its idempotency record when a key was sent. */
  tx: Db;
  params: Record<string, string>;
  body: Body;
  biz: Business;
}

/** Puts a domain error about the plan on the field the API calls planName. */
function onPlanName(err: unknown): never {
  if (err instanceof DomainError && err.field === 'planId') throw new DomainError(err.status, err.message, 'planName');
  throw err;
}

export default async function businessLegacyRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  const { registry } = app.deps.entities;
  const entity = (name: string): EntitySchema => registry.get(name);
  // Unwrapped, so its validator compiler and error handler stay inside its own context.
  await app.register(entityRoutes, { db, entities: registry, hooks: defaultHooks(), codeWrites: CODE_WRITES });

  /** A write: one transaction, replayed from its Idempotency-Key when one is sent. */
  const write = (method: 'POST' | 'DELETE', path: string, opts: RouteShorthandOptions, handler: (ctx: Ctx) => Promise<unknown>) => {
    app.route({
      ...opts,
      method,
      url: path,
      config: { auth: 'business' },
      schema: { tags: ['business'], ...opts.schema },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const ctx: Ctx = { tx: db, params: req.params as Record<string, string>, body: (req.body ?? {}) as Body, biz: req.business };
        const key = idempotencyKey(req);
        if (!key) return db.tx(async (tx) => ok(await handler({ ...ctx, tx })));
        await yieldToLoop(); // hashing a large body is a phase of its own (see yieldToLoop)
        // A replay with the same key returns the first answer and changes nothing twice.
        const r = await withIdempotency(
          db,
          { userId: req.user.id, key, method, path: req.routeOptions.url ?? path, requestHash: hashRequest({ biz: req.business.businessId, params: ctx.params, body: ctx.body }) },
          async (tx) => ({ status: 200, body: ok(await handler({ ...ctx, tx })) }),
        );
        reply.header('idempotent-replayed', String(r.replayed));
        return reply.status(r.status).send(r.body);
      },
    });
  };

  /** A stored form of a checked value (ID and tax numbers upper-case, account numbers without spaces). */
  const stored = (e: EntitySchema, key: string, v: unknown) => (v === undefined ? v : toDbValue(e.fields[key], v)[0]);

  // ------------------------------------------------------------ insure writes

  /** Rosters and attendance go through the money rules: cover from today, plan on sale, balance checked atomically. */
  async function insure(tx: Db, biz: Business, source: 'roster' | 'attendance', body: Body, date: string) {
    // createInsuranceBatch trims and upper-cases the ID numbers itself (normaliseRows): no copy of the rows here.
    const rows = body.rows as unknown as InsureRow[];
    return createInsuranceBatch(tx, biz, { source, planId: String(body.planName), startDate: date, rows, fileName: body.fileName as string | undefined }, { entities: registry }).catch(onPlanName);
  }
  async function createBatch(tx: Db, biz: Business, source: 'roster' | 'attendance', body: Body, date: string) {
    const r = await insure(tx, biz, source, body, date);
    return getRow(tx, entity('insure-batch'), biz.businessId, r.batchId);
  }

  const roster = entity('roster-submit');
  write('POST', '/api/insure/roster', entityInput(roster, { doc: { summary: roster.label } }), ({ tx, body, biz }) =>
    // Roster cover runs one year; premium is the monthly price times 12 (src/server/domain/insure.ts).
    createBatch(tx, biz, 'roster', body, String(body.startDate)),
  );

  const attendance = entity('attendance-submit');
  const attendancePack = (req: FastifyRequest) => {
    if (!req.business.servicePacks.includes('attendance')) throw forbidden('当前企业未开通考勤服务包');
  };
  write('POST', '/api/insure/attendance', entityInput(attendance, { guard: attendancePack, doc: { summary: attendance.label } }), async ({ tx, body, biz }) => {
    const r = await insure(tx, biz, 'attendance', body, String(body.workDate));
    const [order] = await tx.query<{ id: number }>('SELECT id FROM orders WHERE business_id = $1 AND order_no = $2', [biz.businessId, r.orderNo]);
    // The form, plus what the page shows right after submitting: who was insured, the cost, who was skipped and why.
    return {
      ...(await getRow(tx, entity('insure-batch'), biz.businessId, r.batchId)),
      insured: r.people,
      amount: r.amountCents / 100,
      orderNo: r.orderNo,
      orderId: order?.id ?? null,
      payStatus: r.payStatus,
      balanceAfter: r.balanceAfterCents === undefined ? null : r.balanceAfterCents / 100,
      skipped: r.skipped ?? [],
    };
  });

  // ------------------------------------------------------------ finance / claims writes

  const invoice = entity('invoice');
  write('POST', '/api/invoices', entityInput(invoice, { doc: { summary: `申请${invoice.label}` } }), async ({ tx, body, biz }) => {
    const inv = await applyInvoice(
      tx,
      biz,
      {
        ...body,
        orderNos: body.orderNos as string[],
        title: String(body.title),
        taxNo: String(stored(invoice, 'taxNo', body.taxNo)),
        type: (body.type ?? 'normal') as 'normal' | 'special',
        email: String(body.email),
      },
      invoice,
    );
    return getRow(tx, invoice, biz.businessId, inv.id);
  });

  const refund = entity('invoice-refund');
  write('POST', '/api/invoice-refunds', entityInput(refund, { doc: { summary: `申请${refund.label}` } }), async ({ tx, body, biz }) => {
    const r = await applyRefund(tx, biz, { ...body, invoiceNo: String(body.invoiceNo), amountCents: Number(stored(refund, 'amount', body.amount)), reason: String(body.reason) }, refund);
    return getRow(tx, refund, biz.businessId, r.id);
  });

  const claim = entity('claim');
  write('POST', '/api/claims', entityInput(claim, { doc: { summary: `报案（${claim.label}）` } }), async ({ tx, body, biz }) => {
    // The claim must fall inside the person's cover and within the plan's limit (src/server/domain/cover.ts).
    const c = await createClaim(tx, biz, {
      ...body,
      personName: String(body.personName),
      idCard: String(stored(claim, 'idCard', body.idCard)),
      accidentDate: String(body.accidentDate),
      accidentType: String(body.accidentType),
      description: body.description as string | undefined,
      amountCents: Number(stored(claim, 'amount', body.amount)),
      // Uploaded attachments are linked in the same transaction (shape and count checked by the entity rules).
      attachmentIds: parseAttachmentIds(body.attachmentIds),
    }, { entity: claim });
    return getRow(tx, claim, biz.businessId, c.id);
  });

  const bank = entity('bank-account');
  const admin = (req: FastifyRequest) => requireAdmin(req.business);
  write('POST', '/api/bank-accounts', entityInput(bank, { guard: admin, doc: { summary: `添加${bank.label}` } }), async ({ tx, body, biz }) => {
    // One default account per business, safe under parallel requests (src/server/domain/bank.ts).
    const acct = await addBankAccount(tx, biz, {
      ...body,
      accountName: String(body.accountName),
      bankName: String(body.bankName),
      accountNo: String(stored(bank, 'accountNo', body.accountNo)),
      branch: (body.branch as string | undefined) ?? '',
      isDefault: body.isDefault === true,
    }, bank);
    return getRow(tx, bank, biz.businessId, acct.id);
  });

  write('DELETE', '/api/bank-accounts/:id', { preValidation: async (req) => admin(req), schema: { summary: `删除${bank.label}` } }, async ({ tx, params, biz }) => {
    const id = Number(params.id);
    if (!Number.isInteger(id) || id < 1 || id > 2147483647) throw notFound('银行账户不存在');
    await deleteBankAccount(tx, biz, id);
    return {};
  });
}
