/**
 * An entity's row in API form: the SELECT list of every field under its schema key (money in yuan,
 * dates and times as text, derived fields computed on the business's today) and its masked fields.
 */
import type { EntitySchema, FieldSchema } from '../../shared/entity/types.ts';
import { maskAccountNo, maskIdCard, maskPhone } from '../util.ts';
import { columnOf } from './ddl.ts';
import { derivedSelect } from './derived-sql.ts';

const MASKS = { idCard: maskIdCard, phone: maskPhone, bankAccount: maskAccountNo } as const;

/** A stored field's value in API form (money in yuan, dates and times as text). */
export function selectExpr(key: string, f: FieldSchema): string {
  const c = columnOf(key, f);
  switch (f.type) {
    case 'money':
      return `(${c}::float8 / 100)`;
    case 'date':
      return `to_char(${c}, 'YYYY-MM-DD')`;
    case 'datetime':
      return `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
    default:
      return c;
  }
}

/**
 * SELECT list exposing every field under its schema key; a derived field is computed on `today` (SQL
 * text of the business's today, a parameter of the statement).
 */
export function selectList(e: EntitySchema, today?: string): string {
  const expr = (k: string, f: FieldSchema) => {
    if (!f.derived) return selectExpr(k, f);
    if (!today) throw new Error(`selectList: ${e.name}.${k} is derived and needs today`);
    return derivedSelect(e, k, today);
  };
  return ['id AS "id"', ...Object.entries(e.fields).map(([k, f]) => `${expr(k, f)} AS "${k}"`)].join(', ');
}

export function applyMasks(e: EntitySchema, row: Record<string, unknown>): Record<string, unknown> {
  for (const [k, f] of Object.entries(e.fields)) {
    if (f.mask && typeof row[k] === 'string') row[k] = MASKS[f.mask](row[k] as string);
  }
  return row;
}
