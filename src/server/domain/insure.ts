import type { Db, Queryable } from '../db.ts';
import { cellValue } from '../../shared/entity/cells.ts';
import { checkField } from '../../shared/entity/rules.ts';
import type { EntityRegistry } from '../../shared/entity/registry.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { repoEntities } from '../entity/repo.ts';
import { apiSelect, columns, recordset, recordValues, sharedKeys, storedJson, toStored, updateSet, writableKeys, type EntityRecord } from '../entity/record.ts';
import { DomainError, type FieldProblem } from './errors.ts';
import { deductBalance } from './balance.ts';
import { coverStartError } from './cover.ts';
import { autoInsureAges, outOfAgeRows, requirePlan } from './plans.ts';
import { mapInSlices, yieldToLoop } from '../util.ts';
import { recheckStatuses, selectAutoInsured, type AutoSkip, type StoredPerson } from './auto-insure.ts';
import { AutoInsureStatus, initialStatus, statusReason } from '../../shared/auto-insure.ts';
import { addDays, addMonths, cents, fmtYuan, localParts, serialNo, serialNos, type BizRef } from './util.ts';

/**
 * One person of a roster or attendance submission: a record of the insured-person entity's writable
 * fields in API form (what the roster API, the upload and the attendance form carry), keyed by field
 * key. The domain reads only the fields its rules name (the ID number that identifies a person, the
 * name its messages quote); every other field is stored as the entity schema says (entity/record.ts).
 */
export type InsureRow = EntityRecord & { name?: unknown; idCard?: unknown };

/** A checked row: trimmed, ID number upper-case. */
export type PersonRow = EntityRecord & { name: string; idCard: string };

export interface InsuranceBatchInput {
  source: 'roster' | 'attendance';
  /** Plan id (or, for today's routes, the plan name). */
  planId: string;
  /** Roster: cover start; attendance: the work day. */
  startDate: string;
  rows: InsureRow[];
  fileName?: string;
  formId?: string;
  /**
   * Prepaid only: store the order unpaid and the cover pending until payOrder succeeds (e.g. via a
   * payment provider). Without it a prepaid batch is paid from the balance or refused.
   */
  payLater?: boolean;
  /**
   * Most rows accepted (default MAX_BATCH_ROWS). A confirmed upload passes its file limit: the insured
   * persons are then split into consecutive orders of at most MAX_BATCH_ROWS (see ordersOf).
   */
  maxRows?: number;
}

/** One order of a batch: its persons are consecutive rows (ID-card order) of the batch. */
export interface BatchOrder {
  orderNo: string;
  people: number;
  amountCents: number;
}

export interface InsuranceBatchResult {
  batchId: number;
  batchNo: string;
  /** The first (usually the only) order. */
  orderNo: string;
  /** Every order of the batch, in ID-card order of their persons; amountCents is their total. */
  orders: BatchOrder[];
  amountCents: number;
  people: number;
  payStatus: 'paid' | 'unpaid';
  coverStatus: 'effective' | 'pending';
  startDate: string;
  endDate: string;
  balanceAfterCents?: number;
  /** Attendance: rows not insured because of the person's automatic-insurance status (docs/auto-insure.md). */
  skipped?: AutoSkip[];
}

export interface InsureOptions {
  now?: Date;
  cutoff?: string;
  /** Called (not awaited) after each order-sized chunk of records is written: persons insured so far / to insure. */
  onProgress?: (done: number, total: number) => void;
  /** The gateway's entity schemas (default: the repository's). */
  entities?: EntityRegistry;
}

/** Persons per order (the order entity's personCount limit); a larger confirmed upload becomes several orders. */
export const MAX_BATCH_ROWS = 5000;

/** How many orders `people` persons make (consecutive chunks of MAX_BATCH_ROWS). */
export function orderCount(people: number): number {
  return Math.max(1, Math.ceil(people / MAX_BATCH_ROWS));
}

/** SQL: the person's current row stays when they are insured today and the new cover starts later. */
const KEEP = `(insured_persons.status = 'insured' AND insured_persons.end_date >= $8::date AND EXCLUDED.start_date > $8::date)`;

/** Roster cover runs one year (12 months, start + 12 months − 1 day); attendance covers the work day. */
export function coverPeriod(source: 'roster' | 'attendance', startDate: string): { endDate: string; units: number } {
  return source === 'roster' ? { endDate: addDays(addMonths(startDate, 12), -1), units: 12 } : { endDate: startDate, units: 1 };
}

/**
 * SQL: the insure_records row (unqualified columns) is cover of this plan overlapping [start, end], the
 * rule that nobody is insured twice by one plan in one period. The arguments are SQL parameter refs.
 */
export function overlapsCoverSql(p: { planId: string; planName: string; start: string; end: string }): string {
  return `(plan_id = ${p.planId} OR (plan_id IS NULL AND plan_name = ${p.planName}))
              AND status IN ('effective','pending') AND effective_date <= ${p.end}::date AND expiry_date >= ${p.start}::date`;
}

/**
 * Trimmed rows checked by the person entity's field rules (the same checkField the browser runs), sorted
 * by ID card, and each ID card's row number in the submission (1-based, for messages). The checks run in
 * slices of the event loop (mapInSlices).
 */
async function normaliseRows(person: EntitySchema, rows: InsureRow[], maxRows = MAX_BATCH_ROWS): Promise<{ rows: PersonRow[]; rowNo: Map<string, number> }> {
  if (!Array.isArray(rows) || rows.length === 0) throw new DomainError(400, '请至少添加 1 名人员', 'rows');
  if (rows.length > maxRows) throw new DomainError(400, `每批最多 ${maxRows} 人`, 'rows');
  const keys = writableKeys(person);
  const rowNo = new Map<string, number>();
  const problems: FieldProblem[] = [];
  const out = await mapInSlices(rows, (r, i) => {
    const row: EntityRecord = {};
    // Cells of a file or the editor arrive as text: each becomes its field's value (shared/entity/cells.ts).
    for (const k of keys) row[k] = cellValue(person.fields[k], r?.[k]);
    row.idCard = String(row.idCard ?? '').toUpperCase();
    row.name = String(row.name ?? '');
    for (const k of keys) {
      const message = checkField(person.fields[k], row[k]);
      if (message) problems.push({ field: `rows[${i}].${k}`, message: `第 ${i + 1} 行：${message}` });
    }
    const idCard = row.idCard as string;
    if (idCard && !problems.some((p) => p.field === `rows[${i}].idCard`)) {
      if (rowNo.has(idCard)) problems.push({ field: `rows[${i}].idCard`, message: `第 ${i + 1} 行：身份证号与第 ${rowNo.get(idCard)} 行重复` });
      else rowNo.set(idCard, i + 1);
    }
    return row as PersonRow;
  });
  if (problems.length) throw new DomainError(400, '名单中有数据不正确，本批次未提交，请修改后重新提交', undefined, problems);
  await yieldToLoop();
  // A fixed order (by ID card) for every row lock taken below, so overlapping batches never deadlock.
  out.sort((a, b) => (a.idCard < b.idCard ? -1 : a.idCard > b.idCard ? 1 : 0));
  return { rows: out, rowNo };
}

export async function loadBusiness(q: Queryable, businessId: string) {
  const rows = await q.query<{ charge_form: 'prepaid' | 'postpaid'; service_packs: string[] }>(
    'SELECT charge_form, service_packs FROM businesses WHERE id = $1',
    [businessId],
  );
  if (!rows[0]) throw new DomainError(404, '企业不存在');
  return rows[0];
}

/**
 * Stores a roster or attendance batch with its persons, records and order in one transaction.
 * Prepaid: the premium is deducted first (atomic UPDATE) or nothing is stored. Postpaid: the order is
 * unpaid, added to the month's statement, and the cover is effective.
 */
export async function createInsuranceBatch(
  db: Db,
  biz: BizRef,
  input: InsuranceBatchInput,
  opts: InsureOptions = {},
): Promise<InsuranceBatchResult> {
  const now = opts.now ?? new Date();
  const dateField = input.source === 'attendance' ? 'workDate' : 'startDate';
  const startErr = coverStartError(input.startDate, now, opts.cutoff);
  if (startErr) throw new DomainError(400, input.source === 'attendance' ? startErr.replace('起保日期', '出勤日期') : startErr, dateField);
  await yieldToLoop(); // the row checks below are a phase of their own for other requests' sake (see yieldToLoop)
  const entities = opts.entities ?? repoEntities().registry;
  const person = entities.get('insured-person');
  const { rows: allRows, rowNo } = await normaliseRows(person, input.rows, input.maxRows);
  const { endDate, units } = coverPeriod(input.source, input.startDate);
  const today = localParts(now).date;

  return db.tx(async (tx) => {
    const b = await loadBusiness(tx, biz.businessId);
    if (input.source === 'attendance' && !b.service_packs.includes('attendance')) {
      throw new DomainError(403, '当前企业未开通考勤服务包');
    }
    const plan = await requirePlan(tx, input.planId, input.source === 'roster' ? 'month' : 'day');
    // Insurable ages are the plan's: a roster with someone outside them is refused with the rows and reasons.
    const tooOld = input.source === 'roster' ? outOfAgeRows(allRows, plan, input.startDate, (card) => rowNo.get(card) ?? 0) : [];
    if (tooOld.length) throw new DomainError(400, `名单中有 ${tooOld.length} 人不在该方案的可投保年龄之内，本批次未提交`, 'rows', tooOld);
    // Automatic insurance judges a roster's persons by the day plans it may buy (attendance: by its own plan).
    const autoAges = input.source === 'roster' ? await autoInsureAges(tx) : [plan];
    // Attendance insures only persons in 自动投保中 (after this submission's information is applied).
    const auto = input.source === 'attendance'
      ? await selectAutoInsured(tx, person, biz.businessId, allRows, input.startDate, (card) => rowNo.get(card) ?? 0, plan)
      : { insure: allRows, skipped: [] };
    const rows = auto.insure;
    const perPerson = plan.priceCents * units;
    const amountCents = perPerson * rows.length;
    if (!Number.isSafeInteger(amountCents)) throw new DomainError(400, '金额超出范围', 'rows');
    const prepaid = b.charge_form === 'prepaid';
    const payLater = prepaid && input.payLater === true;
    const batchNo = await serialNo(tx, 'PB', now);
    const orders = await ordersOf(tx, rows.length, perPerson, now);
    // Paying one order activates the batch's pending cover (payment.ts), so a pay-later batch stays one order.
    if (payLater && orders.length > 1) throw new DomainError(400, `稍后支付的批次最多 ${MAX_BATCH_ROWS} 人`, 'rows');

    // Prepaid: charge first (all orders or none). This also locks the business row, so batches of one business queue here.
    let balanceAfterCents: number | undefined;
    if (prepaid && !payLater) balanceAfterCents = await chargeOrders(tx, biz.businessId, orders, amountCents);
    const coverStatus = payLater ? 'pending' : 'effective';
    const personStatus = !payLater && input.startDate <= today ? 'insured' : 'pending';

    const [batch] = await tx.query<{ id: number }>(
      `INSERT INTO insure_batches (business_id, batch_no, source, file_name, total, succeeded, failed, status, form_id)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) RETURNING id`,
      [biz.businessId, batchNo, input.source, input.fileName ?? '', allRows.length, rows.length, auto.skipped.length,
        auto.skipped.length ? 'partially_failed' : 'done', input.formId ?? null],
    );
    const cards = rows.map((r) => r.idCard);

    // One statement for all persons, in ID-card order (see normaliseRows). Every conflicting row is
    // locked even when the CASEs keep it: a person covered today keeps that cover on the persons list
    // when the new cover starts later (the records table holds both). A new person gets the
    // automatic-insurance status their information implies (attendance: 1, they were selected for it);
    // a roster leaves an existing person's status to recheckStatuses below, so only they are returned.
    // The person's own fields are the entity's writable fields (entity/record.ts): a blank cell keeps
    // what the person already holds. The rows travel as one JSON parameter: JSON.stringify is native,
    // where the driver would escape 25,000 array elements one by one in JavaScript.
    const keys = writableKeys(person);
    const persons = await mapInSlices(rows, (r) => {
      const status = input.source === 'attendance' ? AutoInsureStatus.Insuring : initialStatus(r, input.startDate, autoAges);
      return { ...toStored(person, r, keys), autoStatus: String(status), autoReason: statusReason(status, r, input.startDate, autoAges) };
    });
    await yieldToLoop();
    const existing = await tx.query<StoredPerson>(
      `WITH up AS (
         INSERT INTO insured_persons (business_id, ${columns(person, keys).join(', ')}, plan_name, plan_id, status, start_date, end_date, auto_status, auto_reason)
         SELECT $1, ${recordValues(keys).join(', ')}, $2, $3, $4, $5::date, $6::date, t."autoStatus", t."autoReason"
           FROM ${recordset(person, keys, '$7', 't', { autoStatus: 'text', autoReason: 'text' })}
          ORDER BY t."idCard"
         ON CONFLICT (business_id, id_card) DO UPDATE SET ${updateSet(person, keys.filter((k) => k !== 'idCard'), { from: 'EXCLUDED', table: 'insured_persons', keep: true })},${input.source === 'attendance' ? ' auto_status = EXCLUDED.auto_status, auto_reason = EXCLUDED.auto_reason,' : ''}
           plan_name = CASE WHEN ${KEEP} THEN insured_persons.plan_name ELSE EXCLUDED.plan_name END,
           plan_id = CASE WHEN ${KEEP} THEN insured_persons.plan_id ELSE EXCLUDED.plan_id END,
           status = CASE WHEN ${KEEP} THEN insured_persons.status ELSE EXCLUDED.status END,
           start_date = CASE WHEN ${KEEP} THEN insured_persons.start_date ELSE EXCLUDED.start_date END,
           end_date = CASE WHEN ${KEEP} THEN insured_persons.end_date ELSE EXCLUDED.end_date END
         RETURNING id, auto_status, auto_reason, ${apiSelect(person, keys)}, xmax <> 0 AS existed)
       SELECT * FROM up WHERE existed AND $9::boolean`,
      [biz.businessId, plan.name, plan.id, personStatus, input.startDate, endDate, JSON.stringify(persons), today, input.source === 'roster'],
    );

    // The persons are locked now, so a batch racing for the same people sees our records after we commit.
    // One index probe per person (the LATERAL … LIMIT 1 keeps the planner from turning 5,000 ids into a
    // scan of the business's records, whose cost would grow with every batch ever stored).
    const dup = await tx.query<{ id_card: string; person_name: string }>(
      `SELECT c.id_card, r.person_name
         FROM json_array_elements_text($2::json) WITH ORDINALITY AS c(id_card, n)
         CROSS JOIN LATERAL (
           SELECT person_name FROM insure_records
            WHERE business_id = $1 AND id_card = c.id_card AND ${overlapsCoverSql({ planId: '$3', planName: '$4', start: '$5', end: '$6' })}
            LIMIT 1) r
        ORDER BY c.n LIMIT 20`,
      [biz.businessId, JSON.stringify(cards), plan.id, plan.name, input.startDate, endDate],
    );
    if (dup.length) {
      const first = dup[0];
      throw new DomainError(
        409,
        `${dup.length >= 20 ? '20 名以上' : `${dup.length} 名`}人员在该期间已有同一方案的保障（如 ${first.person_name} ${first.id_card}），本批次未提交`,
        'rows',
        dup.map((d) => ({ field: `rows[${(rowNo.get(d.id_card) ?? 1) - 1}].idCard`, message: `${d.person_name} 在该期间已有同一方案的保障` })),
      );
    }

    // Records in order-sized chunks, so a caller can show progress (opts.onProgress) between them.
    for (let from = 0; from < rows.length; from += MAX_BATCH_ROWS) {
      await tx.query(
        `INSERT INTO insure_records (business_id, batch_id, batch_no, person_name, id_card, plan_name, plan_id, premium_cents,
                                     status, effective_date, expiry_date)
         SELECT $1, $2, $3, t.name, t."idCard", $4, $5, $6, $7, $8::date, $9::date
           FROM json_to_recordset($10::json) AS t(name text, "idCard" text)`,
        [biz.businessId, batch.id, batchNo, plan.name, plan.id, perPerson, coverStatus, input.startDate, endDate,
          JSON.stringify(rows.slice(from, from + MAX_BATCH_ROWS))],
      );
      opts.onProgress?.(Math.min(from + MAX_BATCH_ROWS, rows.length), rows.length);
    }

    if (input.source === 'attendance') {
      if (auto.skipped.length) await recordAttendanceRows(tx, entities.get('insure-batch-row'), person, biz.businessId, batch.id, input.rows, auto.skipped);
    } else {
      // A person already on the list is re-checked with the information this roster gave them.
      await recheckStatuses(tx, existing, input.startDate, biz.businessId, autoAges);
    }

    const paid = prepaid && !payLater;
    const month = prepaid ? null : localParts(now).date.slice(0, 7);
    const orderNos = orders.map((o) => o.orderNo);
    const orderAmounts = orders.map((o) => o.amountCents);
    // All orders in one statement (and their payments in another), however many there are.
    await tx.query(
      `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, pay_status, order_status,
                           paid_at, batch_id, statement_month)
       SELECT $1, t.order_no, $2, t.people, t.amount_cents, $3, $4, $5::timestamptz, $6, $7
         FROM unnest($8::text[], $9::int[], $10::bigint[]) WITH ORDINALITY AS t(order_no, people, amount_cents, n)
        ORDER BY t.n`,
      [biz.businessId, plan.name, paid ? 'paid' : 'unpaid', paid ? 'completed' : 'pending_payment', paid ? now.toISOString() : null, batch.id, month,
        orderNos, orders.map((o) => o.people), orderAmounts],
    );
    if (paid) {
      await tx.query(
        `INSERT INTO payments (business_id, order_no, amount_cents, channel, status)
         SELECT $1, t.order_no, t.amount_cents, 'balance', 'succeeded' FROM unnest($2::text[], $3::bigint[]) AS t(order_no, amount_cents)`,
        [biz.businessId, orderNos, orderAmounts],
      );
    }
    if (month) {
      await tx.query(
        `INSERT INTO statements (business_id, month, amount_cents, order_count) VALUES ($1,$2,$3,$4)
         ON CONFLICT (business_id, month) DO UPDATE
           SET amount_cents = statements.amount_cents + EXCLUDED.amount_cents, order_count = statements.order_count + EXCLUDED.order_count`,
        [biz.businessId, month, amountCents, orders.length],
      );
    }
    return {
      batchId: batch.id,
      batchNo,
      orderNo: orders[0].orderNo,
      orders,
      amountCents,
      people: rows.length,
      payStatus: paid ? 'paid' : 'unpaid',
      coverStatus,
      startDate: input.startDate,
      endDate,
      ...(balanceAfterCents === undefined ? {} : { balanceAfterCents }),
      ...(input.source === 'attendance' ? { skipped: auto.skipped } : {}),
    };
  });
}

/** The orders of a batch of `people` persons: consecutive chunks of at most MAX_BATCH_ROWS, each its own number. */
async function ordersOf(tx: Queryable, people: number, perPersonCents: number, now: Date): Promise<BatchOrder[]> {
  const chunks = Math.ceil(Math.max(people, 1) / MAX_BATCH_ROWS);
  const nos = await serialNos(tx, 'OD', chunks, now);
  return nos.map((orderNo, i) => {
    const n = Math.min(MAX_BATCH_ROWS, people - i * MAX_BATCH_ROWS);
    return { orderNo, people: n, amountCents: n * perPersonCents };
  });
}

async function chargeOrders(tx: Queryable, businessId: string, orders: BatchOrder[], totalCents: number): Promise<number> {
  if (orders.length > 1) {
    const [b] = await tx.query<{ balance: number }>('SELECT balance_cents::float8 AS balance FROM businesses WHERE id = $1 FOR UPDATE', [businessId]);
    if (!b) throw new DomainError(404, '企业不存在');
    if (cents(b.balance) < totalCents) {
      throw new DomainError(
        400,
        `余额不足：本次需支付 ¥${fmtYuan(totalCents)}（${orders.length} 个订单合计），当前余额 ¥${fmtYuan(cents(b.balance))}，请先充值`,
        'balance',
      );
    }
  }
  let after = 0;
  for (const o of orders) after = await deductBalance(tx, businessId, o.amountCents, 'insure', o.orderNo);
  return after;
}

/**
 * Every row of an attendance batch with its own result, so the historical form shows who was skipped and
 * why. A form row holds the person's fields it shares with the insured-person entity (insure-batch-row
 * takes them with `fieldsFrom`), as submitted.
 */
async function recordAttendanceRows(tx: Queryable, formRow: EntitySchema, person: EntitySchema, businessId: string, batchId: number, submitted: InsureRow[], skipped: AutoSkip[]) {
  const why = new Map(skipped.map((s) => [s.rowNo, s.reason]));
  const keys = sharedKeys(person, formRow);
  const rows = submitted.map((r) => ({ ...r, idCard: String(r.idCard ?? '').trim().toUpperCase() }));
  await tx.query(
    `INSERT INTO insure_batch_rows (business_id, batch_id, row_no, ${columns(formRow, keys).join(', ')}, result, error)
     SELECT $1, $2, t."rowNo", ${recordValues(keys).join(', ')}, CASE WHEN t.error IS NULL THEN 'success' ELSE 'failed' END, t.error
       FROM ${recordset(formRow, keys, '$3', 't', { rowNo: 'int', error: 'text' })}`,
    [businessId, batchId, storedJson(formRow, rows, keys, (_, i) => ({ rowNo: i + 1, error: why.get(i + 1) ?? null }))],
  );
}
