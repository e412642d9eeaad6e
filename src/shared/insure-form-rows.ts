/** One row of a historical insurance form as GET /api/insure-batches/:id/rows returns it (and confirm stores it). */
export interface FormRowResult {
  rowNo: number;
  name: string;
  idCard: string;
  phone: string;
  jobType: string;
  result: 'success' | 'failed';
  error: string | null;
}
