/**
 * The roster's sheet columns and row rules taken from the entity schema (the roster-submit entity's
 * `rows` items, i.e. the insured-person input fields), so the template, the header mapping and the
 * row checks follow schemas/entities/ like the browser does. Header variants (aliases), widths and
 * text formats come from ROSTER_COLUMNS where a column of the same key exists.
 */
import { fileURLToPath } from 'node:url';
import { cellValue } from '../../shared/entity/cells.ts';
import { checkField } from '../../shared/entity/rules.ts';
import type { FieldSchema } from '../../shared/entity/types.ts';
import { ROSTER_COLUMNS } from './roster-columns.ts';
import type { RowValidator, SheetColumn } from './types.ts';

/** This module's file: the validator module parse processes load (createFieldsValidator). */
export const ROSTER_VALIDATOR = fileURLToPath(import.meta.url);

export type RosterFields = Record<string, FieldSchema>;

/** The filling note of a column, derived from its rules. */
export function fieldNote(f: FieldSchema): string {
  const parts: string[] = [];
  if (f.type === 'idCard') parts.push('18 位居民身份证号，末位可为 X；请保持文本格式，勿改为数字');
  else if (f.type === 'phone') parts.push('11 位手机号');
  else if (f.minLength !== undefined && f.maxLength !== undefined) parts.push(`${f.minLength}–${f.maxLength} 个字符`);
  else if (f.maxLength !== undefined) parts.push(`最多 ${f.maxLength} 个字符`);
  if (!f.required) parts.push('可不填');
  return parts.join('，');
}

/** Sheet columns in the order of the entity's fields. */
export function rosterColumnsFromFields(fields: RosterFields): SheetColumn[] {
  return Object.entries(fields).map(([key, f]) => {
    const known = ROSTER_COLUMNS.find((c) => c.key === key);
    return {
      key,
      label: f.label,
      aliases: known?.aliases,
      required: !!f.required,
      example: f.example !== undefined ? String(f.example) : known?.example,
      note: fieldNote(f),
      width: known?.width,
      text: known?.text ?? (f.type === 'idCard' || f.type === 'phone' ? true : undefined),
    };
  });
}

/**
 * Row errors of one roster row by the entity rules (the same cellValue and checkField the browser runs):
 * a cell's text becomes its field's value first, so a number, date or option column is checked as one.
 */
export function rosterRowErrors(fields: RosterFields, row: Record<string, unknown>): Array<{ column: string; message: string }> {
  const out: Array<{ column: string; message: string }> = [];
  for (const [key, f] of Object.entries(fields)) {
    const message = checkField(f, cellValue(f, row[key] ?? ''));
    if (message) out.push({ column: key, message });
  }
  return out;
}

/**
 * Validator factory loaded inside the parse worker (parseRosterInWorker's validatorModule): the
 * field schemas cross the thread boundary as plain data.
 */
export function createFieldsValidator(args: { fields: RosterFields }): RowValidator {
  return (row) => rosterRowErrors(args.fields, row);
}
