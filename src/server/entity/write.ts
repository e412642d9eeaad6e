/**
 * Inserts and updates from a validated, normalised payload (rules.normalizePayload + Ajv). Money
 * yuan → cents, ID/tax numbers upper-cased, bank account numbers without spaces, object arrays as
 * JSONB. Fields not given are left to the database default. Callers run these inside a transaction.
 */
import type { Queryable } from '../db.ts';
import { itemFields } from '../../shared/entity/rules.ts';
import { yuanToCents } from '../../shared/money.ts';
import type { EntitySchema, FieldSchema } from '../../shared/entity/types.ts';
import { columnOf, tableOf } from './ddl.ts';
import { serialNo } from './serial.ts';

/** A payload value as stored: returns [value, SQL cast suffix]. */
export function toDbValue(f: FieldSchema, v: unknown): [unknown, string] {
  switch (f.type) {
    case 'money':
      return [yuanToCents(v), ''];
    case 'idCard':
    case 'taxNo':
      return [String(v).toUpperCase(), ''];
    case 'bankAccount':
      return [String(v).replace(/[\s-]/g, ''), ''];
    case 'array':
      return itemFields(f) ? [JSON.stringify(v), '::jsonb'] : [v, '::text[]'];
    default:
      return [v, ''];
  }
}

/**
 * Inserts a row and returns its id: every field of the entity that `input` gives (API form), plus
 * `extra` columns the entity does not describe (domain columns such as plan_id, by column name, stored
 * form). Server-set serial numbers are generated here.
 */
export async function insertRow(q: Queryable, e: EntitySchema, businessId: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<number> {
  const cols = ['business_id'];
  const vals = ['$1'];
  const params: unknown[] = [businessId];
  for (const [col, v] of Object.entries(extra)) {
    params.push(v);
    cols.push(col);
    vals.push(`$${params.length}`);
  }
  for (const [key, f] of Object.entries(e.fields)) {
    let v = input[key];
    if (v === undefined && typeof f.default === 'string' && f.default.startsWith('serial:')) v = await serialNo(q, f.default.slice(7));
    if (v === undefined) continue;
    const [dbv, cast] = toDbValue(f, v);
    params.push(dbv);
    cols.push(columnOf(key, f));
    vals.push(`$${params.length}${cast}`);
  }
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO ${tableOf(e)} (${cols.join(', ')}) VALUES (${vals.join(', ')}) RETURNING id`,
    params,
  );
  return row.id;
}

/** Updates the given fields of a row in the business; returns false when no such row. */
export async function updateRow(
  q: Queryable,
  e: EntitySchema,
  businessId: string,
  id: number,
  input: Record<string, unknown>,
): Promise<boolean> {
  const params: unknown[] = [businessId, id];
  const sets: string[] = [];
  for (const [key, f] of Object.entries(e.fields)) {
    if (input[key] === undefined) continue;
    const [dbv, cast] = toDbValue(f, input[key]);
    params.push(dbv);
    sets.push(`${columnOf(key, f)} = $${params.length}${cast}`);
  }
  if (!sets.length) {
    const r = await q.query(`SELECT id FROM ${tableOf(e)} WHERE business_id = $1 AND id = $2`, params);
    return r.length > 0;
  }
  const r = await q.query(`UPDATE ${tableOf(e)} SET ${sets.join(', ')} WHERE business_id = $1 AND id = $2 RETURNING id`, params);
  return r.length > 0;
}

/** Deletes a row in the business; returns false when no such row. */
export async function deleteRow(q: Queryable, e: EntitySchema, businessId: string, id: number): Promise<boolean> {
  const r = await q.query(`DELETE FROM ${tableOf(e)} WHERE business_id = $1 AND id = $2 RETURNING id`, [businessId, id]);
  return r.length > 0;
}
