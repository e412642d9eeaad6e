import type { Queryable } from './db.ts';
import { isValidDate, maskAccountNo, maskIdCard } from './util.ts';

export type ColKind = 'text' | 'int' | 'money' | 'date' | 'ts' | 'bool' | 'array';

export interface Col {
  /** SQL column name (trusted, never from user input). */
  col: string;
  kind: ColKind;
  /** 'like' = case-insensitive substring, 'eq' = exact (comma-separated values mean any-of). */
  filter?: 'like' | 'eq';
  sort?: boolean;
  mask?: (s: string) => string;
}

export interface Resource {
  table: string;
  cols: Record<string, Col>;
  defaultSort: { field: string; order: 'ascend' | 'descend' };
}

const text = (col: string, filter: 'like' | 'eq' = 'like', sort = true): Col => ({ col, kind: 'text', filter, sort });
const enm = (col: string): Col => ({ col, kind: 'text', filter: 'eq', sort: true });
const int = (col: string): Col => ({ col, kind: 'int', filter: 'eq', sort: true });
const money = (col: string): Col => ({ col, kind: 'money', sort: true });
const date = (col: string): Col => ({ col, kind: 'date', sort: true });
const ts = (col: string): Col => ({ col, kind: 'ts', sort: true });
// Masked: filterable by the exact full number only (see listResource).
const idCard = (col: string): Col => ({ col, kind: 'text', filter: 'eq', sort: false, mask: maskIdCard });

export const RESOURCES: Record<string, Resource> = {
  'insured-persons': {
    table: 'insured_persons',
    cols: {
      id: int('id'),
      name: text('name'),
      idCard: idCard('id_card'),
      phone: text('phone'),
      jobType: text('job_type'),
      planName: text('plan_name'),
      status: enm('status'),
      autoStatus: enm('auto_status'),
      startDate: date('start_date'),
      endDate: date('end_date'),
      createdAt: ts('created_at'),
    },
    defaultSort: { field: 'id', order: 'descend' },
  },
  'insure-records': {
    table: 'insure_records',
    cols: {
      id: int('id'),
      batchNo: text('batch_no'),
      personName: text('person_name'),
      idCard: idCard('id_card'),
      planName: text('plan_name'),
      premium: money('premium_cents'),
      status: enm('status'),
      effectiveDate: date('effective_date'),
      expiryDate: date('expiry_date'),
      createdAt: ts('created_at'),
    },
    defaultSort: { field: 'createdAt', order: 'descend' },
  },
  'insure-batches': {
    table: 'insure_batches',
    cols: {
      id: int('id'),
      batchNo: text('batch_no'),
      source: enm('source'),
      fileName: text('file_name'),
      total: int('total'),
      succeeded: int('succeeded'),
      failed: int('failed'),
      status: enm('status'),
      createdAt: ts('created_at'),
    },
    defaultSort: { field: 'createdAt', order: 'descend' },
  },
  orders: {
    table: 'orders',
    cols: {
      id: int('id'),
      orderNo: text('order_no'),
      productName: text('product_name'),
      personCount: int('person_count'),
      amount: money('amount_cents'),
      payStatus: enm('pay_status'),
      orderStatus: enm('order_status'),
      createdAt: ts('created_at'),
      paidAt: ts('paid_at'),
    },
    defaultSort: { field: 'createdAt', order: 'descend' },
  },
  invoices: {
    table: 'invoices',
    cols: {
      id: int('id'),
      invoiceNo: text('invoice_no'),
      title: text('title'),
      taxNo: text('tax_no'),
      amount: money('amount_cents'),
      type: enm('type'),
      status: enm('status'),
      email: text('email'),
      createdAt: ts('created_at'),
      orderNos: { col: 'order_nos', kind: 'array' },
    },
    defaultSort: { field: 'createdAt', order: 'descend' },
  },
  'invoice-refunds': {
    table: 'invoice_refunds',
    cols: {
      id: int('id'),
      refundNo: text('refund_no'),
      invoiceNo: text('invoice_no'),
      amount: money('amount_cents'),
      reason: text('reason', 'like', false),
      status: enm('status'),
      createdAt: ts('created_at'),
    },
    defaultSort: { field: 'createdAt', order: 'descend' },
  },
  claims: {
    table: 'claims',
    cols: {
      id: int('id'),
      claimNo: text('claim_no'),
      personName: text('person_name'),
      idCard: idCard('id_card'),
      accidentDate: date('accident_date'),
      accidentType: text('accident_type', 'eq'),
      description: text('description', 'like', false),
      amount: money('amount_cents'),
      status: enm('status'),
      createdAt: ts('created_at'),
    },
    defaultSort: { field: 'createdAt', order: 'descend' },
  },
  'bank-accounts': {
    table: 'bank_accounts',
    cols: {
      id: int('id'),
      accountName: text('account_name'),
      bankName: text('bank_name'),
      accountNo: { col: 'account_no', kind: 'text', sort: false, mask: maskAccountNo },
      branch: text('branch'),
      isDefault: { col: 'is_default', kind: 'bool', filter: 'eq', sort: true },
      createdAt: ts('created_at'),
    },
    defaultSort: { field: 'createdAt', order: 'ascend' },
  },
};

function selectExpr(c: Col): string {
  switch (c.kind) {
    case 'money':
      return `(${c.col}::float8 / 100)`;
    case 'date':
      return `to_char(${c.col}, 'YYYY-MM-DD')`;
    case 'ts':
      return `to_char(${c.col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
    default:
      return c.col;
  }
}

export function selectList(r: Resource): string {
  return Object.entries(r.cols)
    .map(([key, c]) => `${selectExpr(c)} AS "${key}"`)
    .join(', ');
}

function applyMasks(r: Resource, row: Record<string, unknown>): Record<string, unknown> {
  for (const [key, c] of Object.entries(r.cols)) {
    if (c.mask && typeof row[key] === 'string') row[key] = c.mask(row[key] as string);
  }
  return row;
}

export class QueryError extends Error {
  constructor(
    public field: string,
    message: string,
  ) {
    super(message);
  }
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}

function parsePositiveInt(v: string | null, def: number, max: number): number {
  if (v === null || v === '') return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) return def;
  return Math.min(n, max);
}

export interface ListResult {
  list: Record<string, unknown>[];
  total: number;
  current: number;
  pageSize: number;
}

/** Builds a parameterised list query; only whitelisted columns are ever placed into SQL text. */
export async function listResource(
  db: Queryable,
  r: Resource,
  businessId: string,
  q: URLSearchParams,
): Promise<ListResult> {
  const params: unknown[] = [businessId];
  const where: string[] = ['business_id = $1'];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };

  for (const [key, c] of Object.entries(r.cols)) {
    const raw = q.get(key);
    if (raw !== null && raw.trim() !== '' && c.filter) {
      const v = raw.trim();
      if (c.mask) {
        // Masked values must not be recoverable piece by piece: only the full value matches.
        if (!/^\d{17}[\dXx]$/.test(v)) throw new QueryError(key, '身份证号仅支持完整号码精确查询');
        where.push(`upper(${c.col}) = ${p(v.toUpperCase())}`);
      } else if (c.filter === 'like') {
        where.push(`${c.col} ILIKE ${p(`%${escapeLike(v)}%`)}`);
      } else if (c.kind === 'int') {
        const nums = v.split(',').map(Number);
        if (nums.some((n) => !Number.isInteger(n))) throw new QueryError(key, `筛选条件 ${key} 必须为整数`);
        where.push(`${c.col} = ANY(${p(nums)}::int[])`);
      } else if (c.kind === 'bool') {
        if (v !== 'true' && v !== 'false') throw new QueryError(key, `筛选条件 ${key} 只能为 true 或 false`);
        where.push(`${c.col} = ${p(v === 'true')}`);
      } else {
        where.push(`${c.col} = ANY(${p(v.split(',').map((s) => s.trim()))}::text[])`);
      }
    }
    if (c.kind === 'date' || c.kind === 'ts') {
      const range = q.get(`${key}Range`);
      if (range !== null && range.trim() !== '') {
        const [fromRaw = '', toRaw = ''] = range.split(',');
        const from = fromRaw.trim().slice(0, 10);
        const to = toRaw.trim().slice(0, 10);
        for (const d of [from, to]) {
          if (d && !isValidDate(d)) {
            throw new QueryError(`${key}Range`, `日期范围 ${key}Range 格式不正确，应为“开始日期,结束日期”，如 2024-01-01,2024-01-31`);
          }
        }
        const bound = (d: string) =>
          c.kind === 'date' ? `${p(d)}::date` : `(${p(d)}::date)::timestamp AT TIME ZONE 'UTC'`;
        if (from) where.push(`${c.col} >= ${bound(from)}`);
        if (to) {
          where.push(
            c.kind === 'date'
              ? `${c.col} <= ${bound(to)}`
              : `${c.col} < ((${p(to)}::date + 1)::timestamp AT TIME ZONE 'UTC')`,
          );
        }
      }
    }
  }

  let sortField = q.get('sortField') ?? '';
  let sortOrder = q.get('sortOrder') ?? '';
  if (!Object.hasOwn(r.cols, sortField) || !r.cols[sortField].sort) {
    sortField = r.defaultSort.field;
    if (sortOrder !== 'ascend' && sortOrder !== 'descend') sortOrder = r.defaultSort.order;
  }
  const dir = sortOrder === 'ascend' ? 'ASC' : 'DESC';
  const sortCol = r.cols[sortField].col;
  const current = parsePositiveInt(q.get('current'), 1, 1_000_000);
  const pageSize = parsePositiveInt(q.get('pageSize'), 20, 100);

  const whereSql = where.join(' AND ');
  const countRows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${r.table} WHERE ${whereSql}`,
    params,
  );
  const limit = p(pageSize);
  const offset = p((current - 1) * pageSize);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${selectList(r)} FROM ${r.table} WHERE ${whereSql}
     ORDER BY ${sortCol} ${dir} NULLS LAST, id ${dir} LIMIT ${limit} OFFSET ${offset}`,
    params,
  );
  return { list: rows.map((row) => applyMasks(r, row)), total: countRows[0].n, current, pageSize };
}

export async function getResource(
  db: Queryable,
  r: Resource,
  businessId: string,
  id: number,
): Promise<Record<string, unknown> | null> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${selectList(r)} FROM ${r.table} WHERE business_id = $1 AND id = $2`,
    [businessId, id],
  );
  return rows[0] ? applyMasks(r, rows[0]) : null;
}
