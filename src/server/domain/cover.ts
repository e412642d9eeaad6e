import type { Db, Queryable } from '../db.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { pickWritable } from '../entity/record.ts';
import { repoEntities } from '../entity/repo.ts';
import { insertRow } from '../entity/write.ts';
import { DomainError } from './errors.ts';
import { linkAttachments } from './attachments.ts';
import { addDays, cents, fmtYuan, isIsoDate, isPositiveCents, localParts, serialNo, type BizRef } from './util.ts';

/** Daily cut-off 'HH:MM' from env COVER_CUTOFF; '24:00' (default) allows a same-day start all day. */
export function coverCutoff(): string {
  const v = (process.env.COVER_CUTOFF ?? '').trim();
  return /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/.test(v) ? v : '24:00';
}

/** The earliest cover start date at `now`: today, or tomorrow once the cut-off has passed. */
export function earliestCoverStart(now: Date = new Date(), cutoff: string = coverCutoff()): string {
  const { date, time } = localParts(now);
  return time >= cutoff ? addDays(date, 1) : date;
}

/**
 * Cover is never bought after the fact: it starts today (before the cut-off) or later.
 * Returns the Chinese message, or null when the start date is fine.
 */
export function coverStartError(startDate: string, now: Date = new Date(), cutoff: string = coverCutoff()): string | null {
  if (!isIsoDate(startDate)) return '起保日期格式不正确，应为 2024-01-31 这样的日期';
  const earliest = earliestCoverStart(now, cutoff);
  return startDate < earliest ? `起保日期不能早于 ${earliest}` : null;
}

export interface ClaimCoverInput {
  idCard: string;
  accidentDate: string;
  amountCents: number;
}

export interface ClaimCover {
  personId: number | null;
  recordId: number;
  planId: string;
  planName: string;
  claimLimitCents: number;
}

/**
 * The person must hold an effective record (paid cover; expired records count for accidents inside
 * their period) in this business covering the accident date, and the amount must fit the plan limit.
 */
export async function checkClaimCover(tx: Queryable, businessId: string, input: ClaimCoverInput): Promise<ClaimCover> {
  const idCard = String(input.idCard ?? '').trim().toUpperCase();
  if (!isIsoDate(input.accidentDate)) throw new DomainError(400, '出险日期格式不正确', 'accidentDate');
  if (!isPositiveCents(input.amountCents)) throw new DomainError(400, '申请金额应大于 0', 'amount');
  const rows = await tx.query<{
    record_id: number;
    plan_id: string;
    plan_name: string;
    claim_limit_cents: number;
    covers: boolean;
    person_id: number | null;
  }>(
    `SELECT r.id AS record_id, p.code AS plan_id, p.name AS plan_name, p.claim_limit_cents::float8 AS claim_limit_cents,
            (r.effective_date <= $3::date AND r.expiry_date >= $3::date) AS covers,
            (SELECT ip.id FROM insured_persons ip WHERE ip.business_id = r.business_id AND ip.id_card = r.id_card) AS person_id
       FROM insure_records r
       JOIN plans p ON p.code = coalesce(r.plan_id, (SELECT code FROM plans WHERE name = r.plan_name))
      WHERE r.business_id = $1 AND r.id_card = $2 AND r.status IN ('effective','expired')
      ORDER BY covers DESC, p.claim_limit_cents DESC, r.id DESC`,
    [businessId, idCard, input.accidentDate],
  );
  if (rows.length === 0) throw new DomainError(400, '该人员在本企业无有效保单', 'idCard');
  const best = rows[0];
  if (!best.covers) throw new DomainError(400, '出险日期不在该人员的保障期内', 'accidentDate');
  const limit = cents(best.claim_limit_cents);
  if (input.amountCents > limit) {
    throw new DomainError(400, `申请金额超过方案赔付限额 ${fmtYuan(limit)} 元`, 'amount');
  }
  // The limit holds per person and cover period: earlier open or paid claims in the period count.
  const [{ used }] = await tx.query<{ used: number }>(
    `SELECT coalesce(sum(c.amount_cents), 0)::float8 AS used
       FROM claims c JOIN insure_records r ON r.id = $4
      WHERE c.business_id = $1 AND c.id_card = $2 AND c.status <> 'rejected'
        AND (c.plan_id = $3 OR c.plan_id IS NULL)
        AND c.accident_date BETWEEN r.effective_date AND r.expiry_date`,
    [businessId, idCard, best.plan_id, best.record_id],
  );
  const left = limit - cents(used);
  if (input.amountCents > left) {
    throw new DomainError(
      400,
      `申请金额超过该人员本保障期剩余可赔付额度 ${fmtYuan(Math.max(0, left))} 元（方案赔付限额 ${fmtYuan(limit)} 元）`,
      'amount',
    );
  }
  return {
    personId: best.person_id === null ? null : Number(best.person_id),
    recordId: Number(best.record_id),
    planId: best.plan_id,
    planName: best.plan_name,
    claimLimitCents: limit,
  };
}

/**
 * A claim names the insured person of that ID number in this business, and is filed once: the name
 * must be theirs, and a claim that repeats an open or paid one of the same person, accident date and
 * amount is refused (nothing stored). Runs after the person's row is locked, so a parallel copy waits
 * for the first and then sees it.
 */
export async function checkClaimIdentity(tx: Queryable, businessId: string, input: ClaimCoverInput & { personName?: unknown }): Promise<void> {
  const idCard = String(input.idCard ?? '').trim().toUpperCase();
  const [known] = await tx.query<{ name: string | null }>(
    `SELECT coalesce((SELECT name FROM insured_persons WHERE business_id = $1 AND id_card = $2),
                     (SELECT person_name FROM insure_records WHERE business_id = $1 AND id_card = $2 ORDER BY id DESC LIMIT 1)) AS name`,
    [businessId, idCard],
  );
  if (known?.name && known.name.trim() !== String(input.personName ?? '').trim()) {
    throw new DomainError(400, '出险人姓名与该身份证号的参保人员不一致，请核对参保人员名单', 'personName');
  }
  const [same] = await tx.query<{ claim_no: string }>(
    `SELECT claim_no FROM claims WHERE business_id = $1 AND id_card = $2 AND accident_date = $3::date AND amount_cents = $4 AND status <> 'rejected'
      ORDER BY id LIMIT 1`,
    [businessId, idCard, input.accidentDate, input.amountCents],
  );
  if (same) {
    throw new DomainError(409, `该人员已有同一出险日期、同一申请金额的理赔申请 ${same.claim_no}，请勿重复提交`, 'accidentDate');
  }
}

/** The claim entity's fields as the request gives them; the domain reads the ones below (amount in cents). */
export interface ClaimInput extends ClaimCoverInput, Record<string, unknown> {
  personName: string;
  accidentType: string;
  description?: string;
  /** Uploaded claim attachments (src/server/routes/claim-attachments.ts) this claim is filed with. */
  attachmentIds?: number[];
}

/**
 * Stores a claim after checking cover: accident not in the future, insured on that date, and the sum of
 * the person's open/paid claims in that cover period within the plan limit. Its attachments are linked
 * in the same transaction: a foreign or already used attachment refuses the whole claim.
 */
export async function createClaim(
  db: Db,
  biz: BizRef,
  input: ClaimInput,
  opts: { now?: Date; entity?: EntitySchema } = {},
): Promise<{ id: number; claimNo: string; personId: number | null; planId: string }> {
  const entity = opts.entity ?? repoEntities().registry.get('claim');
  const today = localParts(opts.now ?? new Date()).date;
  if (isIsoDate(input.accidentDate) && input.accidentDate > today) {
    throw new DomainError(400, '出险日期不能晚于今天', 'accidentDate');
  }
  return db.tx(async (tx) => {
    // Claims of one person queue on their row, so parallel claims cannot overrun the limit together.
    await tx.query('SELECT id FROM insured_persons WHERE business_id = $1 AND id_card = $2 FOR UPDATE', [
      biz.businessId,
      String(input.idCard ?? '').trim().toUpperCase(),
    ]);
    const cover = await checkClaimCover(tx, biz.businessId, input);
    await checkClaimIdentity(tx, biz.businessId, input);
    const claimNo = await serialNo(tx, 'LP');
    const attachmentIds = input.attachmentIds ?? [];
    // Every field of the claim entity the request gives; the domain sets number, amount, status and cover.
    const id = await insertRow(
      tx,
      entity,
      biz.businessId,
      {
        ...pickWritable(entity, input),
        claimNo,
        idCard: input.idCard.trim().toUpperCase(),
        amount: input.amountCents / 100,
        description: input.description ?? '',
        attachmentIds,
        status: 'reported',
      },
      { person_id: cover.personId, plan_id: cover.planId, cover_checked: true },
    );
    const row = { id };
    await linkAttachments(tx, biz.businessId, row.id, attachmentIds);
    return { id: row.id, claimNo, personId: cover.personId, planId: cover.planId };
  });
}
