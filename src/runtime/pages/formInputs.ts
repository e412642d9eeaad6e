import type { FieldType, FormField } from '../../schema/types';

/**
 * Field types whose Formily inputs are heavy (the roster's editable table, the date picker, the number
 * input): they live in a chunk of their own (formInputsHeavy.ts) that a form loads only when one of
 * its fields needs them, so sign-in and the other small forms do not carry table or picker code.
 */
const HEAVY_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(['rows', 'date', 'number', 'money']);

/** Whether a form (or a roster's columns) has a field rendered by a heavy input. */
export function needsHeavyInputs(fields: readonly FormField[]): boolean {
  return fields.some((f) => HEAVY_TYPES.has(f.type) || (f.columns ? needsHeavyInputs(f.columns) : false));
}
