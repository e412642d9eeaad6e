/** Domain errors: an HTTP-ish status and a Chinese message for the user, optionally tied to a field. */

export interface FieldProblem {
  field: string;
  message: string;
}

export class DomainError extends Error {
  readonly status: number;
  readonly field?: string;
  readonly errors?: FieldProblem[];
  constructor(status: number, message: string, field?: string, errors?: FieldProblem[]) {
    super(message);
    this.name = 'DomainError';
    this.status = status;
    this.field = field;
    this.errors = errors ?? (field ? [{ field, message }] : undefined);
  }
  /** The numeric `code` of the API contract (docs/contract.md): 400 → 40000, 409 → 40900, … */
  get code(): number {
    return this.status * 100;
  }
}

export const isDomainError = (err: unknown): err is DomainError => err instanceof DomainError;

interface PgLikeError {
  code?: unknown;
  constraint?: unknown;
  detail?: unknown;
}

/** True for a unique_violation (SQLSTATE 23505) from either node-postgres or PGlite. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as PgLikeError;
  if (e.code !== '23505') return false;
  return constraint === undefined || e.constraint === constraint;
}

/** True for a check_violation (SQLSTATE 23514), e.g. the balance >= 0 guard. */
export function isCheckViolation(err: unknown, constraint?: string): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as PgLikeError;
  if (e.code !== '23514') return false;
  return constraint === undefined || e.constraint === constraint;
}

/** The key value from a unique_violation detail: `Key (order_no)=(OD1) already exists.` → 'OD1'. */
export function violatedKey(err: unknown): string | undefined {
  const d = (err as PgLikeError | undefined)?.detail;
  if (typeof d !== 'string') return undefined;
  const m = /\)=\((.*)\) already exists/.exec(d);
  return m?.[1];
}
