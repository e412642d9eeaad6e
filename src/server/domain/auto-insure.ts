/**
 * Automatic (attendance) insurance in the database: which persons of an attendance submission are
 * insured, the status of persons a roster registers, and the status of rows that predate the column.
 * The rules themselves are the pure functions of src/shared/auto-insure.ts (docs/auto-insure.md).
 */
import type { Queryable } from '../db.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { maskIdCard } from '../../shared/mask.ts';
import {
  AUTO_INSURE_LABELS,
  AutoInsureStatus,
  initialStatus,
  statusReason,
  transition,
  type PersonInfo,
} from '../../shared/auto-insure.ts';
import type { AgeRange } from '../../shared/insurable-age.ts';
import { autoInsureAges } from './plans.ts';
import { apiSelect, mergeRecord, recordset, storedJson, updateSet, writableKeys, type EntityRecord } from '../entity/record.ts';
import { DomainError, type FieldProblem } from './errors.ts';

/** A row of a submission: the person's fields in API form (the ID number checked and upper-case). */
export type AutoRow = EntityRecord & { name: string; idCard: string };

/** A row of an attendance submission that was not insured, and why. */
export interface AutoSkip {
  /** 1-based row number in the submitted list. */
  rowNo: number;
  name: string;
  /** Masked, as every list shows it. */
  idCard: string;
  /** The person's automatic-insurance status after this submission (0, 2 or 3). */
  autoStatus: AutoInsureStatus;
  reason: string;
}

/** A stored person: id, automatic-insurance status and its reason, and the entity's writable fields in API form. */
export type StoredPerson = EntityRecord & { id: number; auto_status: string | null; auto_reason: string | null };

/** Why a person with this status and information is not insured automatically. */
function skipReason(status: AutoInsureStatus, info: PersonInfo, onDate: string, ages: AgeRange | readonly AgeRange[]): string {
  const why = statusReason(status, info, onDate, ages);
  return `${AUTO_INSURE_LABELS[status]}${why ? `：${why}` : ''}，本次未投保`;
}

/** The stored persons of these ID cards, locked in ID-card order. */
export async function lockPersons(tx: Queryable, person: EntitySchema, businessId: string, idCards: string[]): Promise<StoredPerson[]> {
  return tx.query<StoredPerson>(
    `SELECT id, auto_status, auto_reason, ${apiSelect(person, writableKeys(person))} FROM insured_persons
      WHERE business_id = $1 AND id_card = ANY($2::text[]) ORDER BY id_card FOR UPDATE`,
    [businessId, idCards],
  );
}

/**
 * Attendance submission: insures only persons who are (after this submission's information is
 * applied) in 1 自动投保中. Existing persons are locked (ID-card order, like the batch insert) and
 * moved by the `edit` transition; a stopped person stays stopped and is skipped; a new person is
 * insured when their information is complete and acceptable on the work day, and otherwise only
 * reported (nothing is stored for them). A blank cell never erases what a person holds (mergeRecord).
 * Insurable ages are the submitted plan's (`ages`). `rowNoOf` gives each ID card's 1-based row number.
 * Refuses the whole submission (400, nothing stored) when nobody can be insured.
 */
export async function selectAutoInsured<R extends AutoRow>(
  tx: Queryable,
  person: EntitySchema,
  businessId: string,
  rows: R[],
  workDate: string,
  rowNoOf: (idCard: string) => number,
  ages: AgeRange,
): Promise<{ insure: R[]; skipped: AutoSkip[] }> {
  const keys = writableKeys(person);
  const stored = await lockPersons(tx, person, businessId, rows.map((r) => r.idCard));
  const byCard = new Map(stored.map((p) => [String(p.idCard), p]));
  const insure: R[] = [];
  const skipped: AutoSkip[] = [];
  const updates: EntityRecord[] = [];
  for (const row of rows) {
    const found = byCard.get(row.idCard);
    const info = mergeRecord(keys, row, found) as PersonInfo;
    let status: AutoInsureStatus;
    if (found && found.auto_status !== null) {
      const t = transition(Number(found.auto_status) as AutoInsureStatus, 'edit', info, workDate, ages);
      status = t.ok ? t.status : Number(found.auto_status);
    } else {
      status = initialStatus(info, workDate, ages);
    }
    const name = String(info.name ?? row.name);
    if (status === AutoInsureStatus.Insuring) {
      insure.push({ ...row, ...info, name, idCard: row.idCard });
      continue;
    }
    skipped.push({ rowNo: rowNoOf(row.idCard), name, idCard: maskIdCard(row.idCard), autoStatus: status, reason: skipReason(status, info, workDate, ages) });
    if (found) updates.push({ ...info, id: found.id, autoStatus: String(status), autoReason: statusReason(status, info, workDate, ages) });
  }
  if (insure.length === 0) {
    const problems: FieldProblem[] = skipped.map((s) => ({ field: `rows[${s.rowNo - 1}].idCard`, message: `第 ${s.rowNo} 行 ${s.name}：${s.reason}` }));
    throw new DomainError(400, '本批次没有可自动投保的人员，未提交（请先完善信息或开启自动投保）', undefined, problems);
  }
  // A skipped person already on the list keeps the information just submitted and the status it implies.
  if (updates.length) {
    const own = keys.filter((k) => k !== 'idCard');
    await tx.query(
      `UPDATE insured_persons p SET ${updateSet(person, own, { from: 'u', fromKeys: true })}, auto_status = u."autoStatus", auto_reason = u."autoReason"
         FROM ${recordset(person, own, '$2', 'u', { id: 'int', autoStatus: 'text', autoReason: 'text' })}
        WHERE p.business_id = $1 AND p.id = u.id`,
      [businessId, storedJson(person, updates, own, (u) => ({ id: u.id, autoStatus: u.autoStatus, autoReason: u.autoReason }))],
    );
  }
  skipped.sort((a, b) => a.rowNo - b.rowNo);
  return { insure, skipped };
}

/**
 * After a roster wrote persons already on the list: each is re-checked by the `edit` transition with
 * the information it now holds (a stopped person stays stopped; one without a status yet gets the
 * status their information implies), judged by the day plans' ages (`ages`, autoInsureAges). The
 * status's reason (autoReason) follows it. The rows are locked by the caller's upsert.
 */
export async function recheckStatuses(tx: Queryable, persons: StoredPerson[], onDate: string, businessId: string | undefined, ages: readonly AgeRange[]): Promise<void> {
  const ids: number[] = [];
  const statuses: string[] = [];
  const reasons: Array<string | null> = [];
  for (const p of persons) {
    const info = p as PersonInfo;
    let next: AutoInsureStatus;
    if (p.auto_status === null) next = initialStatus(info, onDate, ages);
    else {
      const t = transition(Number(p.auto_status) as AutoInsureStatus, 'edit', info, onDate, ages);
      next = t.ok ? t.status : (Number(p.auto_status) as AutoInsureStatus);
    }
    const reason = statusReason(next, info, onDate, ages);
    if (String(next) !== p.auto_status || reason !== (p.auto_reason ?? null)) {
      ids.push(p.id);
      statuses.push(String(next));
      reasons.push(reason);
    }
  }
  if (!ids.length) return;
  await tx.query(
    `UPDATE insured_persons p SET auto_status = u.s, auto_reason = u.r FROM unnest($1::int[], $2::text[], $3::text[]) AS u(id, s, r)
      WHERE p.id = u.id${businessId ? ' AND p.business_id = $4' : ''}`,
    businessId ? [ids, statuses, reasons, businessId] : [ids, statuses, reasons],
  );
}

/**
 * Gives every person stored before the column existed (auto_status NULL) the status their
 * information implies on `onDate`, in id order, `batch` rows per statement; then every person whose
 * status keeps them from automatic insurance and has no reason yet (rows from before autoReason, the
 * demo seed) their reason, without moving the status. Idempotent; run at start-up and after seeding.
 */
export async function backfillAutoStatus(db: Queryable, person: EntitySchema, onDate: string, batch = 5000): Promise<number> {
  const ages = await autoInsureAges(db);
  const select = `SELECT id, auto_status, auto_reason, ${apiSelect(person, writableKeys(person))} FROM insured_persons`;
  let done = 0;
  for (;;) {
    const persons = await db.query<StoredPerson>(`${select} WHERE auto_status IS NULL ORDER BY id LIMIT ${batch}`);
    if (!persons.length) break;
    await recheckStatuses(db, persons, onDate, undefined, ages);
    done += persons.length;
  }
  for (let after = 0; ; ) {
    const persons = await db.query<StoredPerson>(
      `${select} WHERE auto_status IN ('0','3') AND auto_reason IS NULL AND id > $1 ORDER BY id LIMIT ${batch}`,
      [after],
    );
    if (!persons.length) return done;
    const reasons = persons.map((p) => statusReason(Number(p.auto_status) as AutoInsureStatus, p as PersonInfo, onDate, ages));
    await db.query(`UPDATE insured_persons p SET auto_reason = u.r FROM unnest($1::int[], $2::text[]) AS u(id, r) WHERE p.id = u.id`, [
      persons.map((p) => p.id),
      reasons,
    ]);
    after = persons[persons.length - 1].id;
    done += persons.length;
  }
}
