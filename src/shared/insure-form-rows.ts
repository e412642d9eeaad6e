/**
 * One row of a historical insurance form as GET /api/insure-batches/:id/rows returns it (and confirm
 * stores it): its row number, result and error, and the person's fields as submitted, keyed like the
 * insure-batch-row entity's fields (which take them from the insured-person entity: `fieldsFrom`).
 */
export type FormRowResult = {
  rowNo: number;
  result: 'success' | 'failed';
  error: string | null;
} & Record<string, unknown>;
