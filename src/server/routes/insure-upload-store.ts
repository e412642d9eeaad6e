/**
 * Database side of roster uploads (table insure_uploads, src/server/files/ddl.ts): the roster
 * columns from the entity schema, loading an upload of the caller's business, the people already
 * covered by a plan in a period (and the ones its insurable ages refuse), and the shape of the stored parse result.
 */
import type { Queryable } from '../db.ts';
import { coverPeriod, findPlan, overlapsCoverSql } from '../domain/index.ts';
import { rosterColumnsFromFields, type RosterFields } from '../files/roster-schema.ts';
import type { CellError, DuplicateRow, ProbedKey, RosterPage, SheetColumn } from '../files/types.ts';
import { ageProblem, type AgeRange } from '../../shared/insurable-age.ts';
import type { EntityRegistry } from '../../shared/entity/registry.ts';
import type { ResultHead } from '../../shared/roster-result.ts';
import { itemFields } from '../../shared/entity/rules.ts';
import { badInput, notFound } from '../http/errors.ts';

/**
 * The row fields of an entity's roster field (an array of objects, e.g. attendance-submit.rows: the
 * insured-person input fields) in the gateway's schemas, and its row limit; null when there is none.
 */
export function rowsFieldOf(registry: EntityRegistry, entity: string, field: string): { fields: RosterFields; maxItems?: number } | null {
  const e = Object.hasOwn(registry.entities, entity) ? registry.entities[entity] : undefined;
  const f = e && Object.hasOwn(e.fields, field) ? e.fields[field] : undefined;
  const items = f ? itemFields(f) : undefined;
  return f && items ? { fields: items, maxItems: f.maxItems } : null;
}

/** The roster row fields: roster-submit's `rows` items (the insured-person input fields) of the gateway's schemas. */
export function rosterFields(registry: EntityRegistry): RosterFields {
  const f = rowsFieldOf(registry, 'roster-submit', 'rows');
  if (!f) throw new Error('roster-submit.rows has no item fields');
  return f.fields;
}

export function rosterColumns(registry: EntityRegistry): SheetColumn[] {
  return rosterColumnsFromFields(rosterFields(registry));
}

/**
 * What the parse keeps of a file: its head in insure_uploads.result, its rows (with their errors and
 * duplicates) in insure_upload_pages, PAGE_SIZE rows a page. The browser loads the pages one by one.
 */
export const PAGE_SIZE = 5000;

/** The whole parse result (head and every page), as the confirmation reads it. */
export interface UploadResult {
  columns: Array<{ key: string; label: string }>;
  headerRow: number;
  unknownHeaders: string[];
  total: number;
  /** Sheet row number of each row. */
  rowNumbers: number[];
  /** Values in `columns` order. */
  rows: string[][];
  errors: CellError[];
  duplicates: DuplicateRow[];
}

export type UploadStatus = 'parsing' | 'ready' | 'failed' | 'confirming' | 'confirmed' | 'expired';

export interface UploadRow {
  id: number;
  business_id: string;
  user_id: number;
  uploader: string;
  file_name: string;
  file_ext: string;
  file_key: string;
  file_size: number;
  error_key: string | null;
  plan_name: string;
  start_date: string;
  status: UploadStatus;
  rows_done: number;
  rows_total: number;
  valid_count: number;
  error_count: number;
  duplicate_count: number;
  error: string | null;
  batch_id: number | null;
  created_at: string;
  /** Confirmation job: persons insured so far / to insure, and its answer once confirmed. */
  confirm_done: number;
  confirm_total: number;
  confirm_result: Record<string, unknown> | null;
  /** A confirmation whose job stopped reporting (STALE_CONFIRM_SECONDS): it may be confirmed again. */
  confirm_stale: boolean;
  /** A parse that a gateway process has claimed (false: queued). */
  parse_claimed: boolean;
}

/**
 * A claimed parse that stopped reporting (heartbeat every few seconds: its gateway process died) is
 * queued again after this long, once; a second time it is failed (the file may be what kills it).
 */
export const STALE_PARSE_SECONDS = 60;
export const MAX_PARSE_ATTEMPTS = 2;
export const PARSE_INTERRUPTED = '文件解析中断，请重新上传';
/** An unconfirmed upload's files are deleted after this long without activity (insure-upload-purge.ts). */
export const UPLOAD_TTL_HOURS = 24;
export const UPLOAD_EXPIRED = `该上传已超过 ${UPLOAD_TTL_HOURS} 小时未确认，文件已清除，请重新上传`;

/**
 * Settles claimed parses whose heartbeat is older than STALE_PARSE_SECONDS: back to the queue, or failed
 * after MAX_PARSE_ATTEMPTS. `where` narrows it (e.g. to one upload); parameters from $3 on.
 */
export const SETTLE_STALE_PARSES = (where: string) => `UPDATE insure_uploads
    SET parse_owner = NULL,
        status = CASE WHEN parse_attempts >= ${MAX_PARSE_ATTEMPTS} THEN 'failed' ELSE 'parsing' END,
        error = CASE WHEN parse_attempts >= ${MAX_PARSE_ATTEMPTS} THEN $1 ELSE error END, updated_at = now()
  WHERE status = 'parsing' AND parse_owner IS NOT NULL AND updated_at < now() - make_interval(secs => $2) ${where}`;
/**
 * A confirmation job that stopped reporting (heartbeat every few seconds) is taken over by another
 * gateway after this long (CONFIRM_STALE_SECONDS, default 60): its transaction died with its process,
 * so nothing was insured, and the job runs again from its stored input
 * (routes/insure-upload-confirm-resume.ts). After MAX_CONFIRM_ATTEMPTS takeovers, or for a job without
 * stored input, the upload is given back instead and the user may confirm again.
 */
export const STALE_CONFIRM_SECONDS = Number(process.env.CONFIRM_STALE_SECONDS) > 0 ? Number(process.env.CONFIRM_STALE_SECONDS) : 60;
export const MAX_CONFIRM_ATTEMPTS = 3;

/** The columns of an UploadRow (SELECT / RETURNING list). */
export const UPLOAD_COLS = `id, business_id, user_id, uploader, file_name, file_ext, file_key, file_size, error_key, plan_name,
  start_date::text AS start_date, status, rows_done, rows_total, valid_count, error_count, duplicate_count, error,
  batch_id, created_at, confirm_done, confirm_total, confirm_result,
  (status = 'confirming' AND updated_at < now() - make_interval(secs => ${STALE_CONFIRM_SECONDS})) AS confirm_stale,
  (parse_owner IS NOT NULL) AS parse_claimed`;
export const CONFIRM_INTERRUPTED = '确认投保中断（服务重启或连接中断），未投保任何人员，请重新确认';

/**
 * An upload of the business. Read without a lock, a background step whose heartbeat went stale is
 * settled first: a claimed parse is queued again or failed (SETTLE_STALE_PARSES; a queued one has no
 * heartbeat and never goes stale), a confirmation that cannot be taken over goes back to ready with
 * CONFIRM_INTERRUPTED. Locked (to confirm it), the row is only read: `confirm_stale` tells the caller
 * (a second UPDATE of the row in the transaction would make PostgreSQL re-check its business key and
 * wait for a confirmation holding that business's row).
 */
export async function loadUpload(q: Queryable, businessId: string, rawId: unknown, opts: { lock?: boolean } = {}): Promise<UploadRow> {
  const id = Number(rawId);
  if (!Number.isInteger(id) || id < 1 || id > 2147483647) throw notFound(`当前企业下不存在该上传记录（ID：${String(rawId)}）`);
  if (!opts.lock) {
    await q.query(SETTLE_STALE_PARSES('AND id = $3 AND business_id = $4'), [PARSE_INTERRUPTED, STALE_PARSE_SECONDS, id, businessId]);
    await q.query(
      `UPDATE insure_uploads SET status = 'ready', error = $4, confirm_token = NULL, confirm_done = 0, updated_at = now()
        WHERE id = $1 AND business_id = $2 AND status = 'confirming' AND updated_at < now() - make_interval(secs => $3)
          AND (confirm_input IS NULL OR confirm_attempts >= $5)`,
      [id, businessId, STALE_CONFIRM_SECONDS, CONFIRM_INTERRUPTED, MAX_CONFIRM_ATTEMPTS],
    );
  }
  return readUpload(q, businessId, id, { ...opts, asked: String(rawId) });
}

/**
 * The upload's row as it is (locked with `lock`); loadUpload settles stale parses and confirmations first.
 * Not found names the ID as it was asked for (`asked`).
 */
export async function readUpload(q: Queryable, businessId: string, id: number, opts: { lock?: boolean; asked?: string } = {}): Promise<UploadRow> {
  const [row] = await q.query<UploadRow>(`SELECT ${UPLOAD_COLS} FROM insure_uploads WHERE id = $1 AND business_id = $2${opts.lock ? ' FOR UPDATE' : ''}`, [
    id,
    businessId,
  ]);
  if (!row) throw notFound(`当前企业下不存在该上传记录（ID：${opts.asked ?? id}）`);
  return row;
}

/** The upload as the console sees it (status endpoint). */
export function uploadView(u: UploadRow) {
  const percent = u.status === 'parsing' || u.status === 'failed' ? (u.rows_total ? Math.floor((u.rows_done * 100) / u.rows_total) : 0) : 100;
  const confirmed = u.status === 'confirmed';
  return {
    id: u.id,
    status: u.status,
    phase: u.status !== 'parsing' ? u.status : !u.parse_claimed ? 'queued' : u.rows_total ? 'validating' : 'reading',
    fileName: u.file_name,
    fileSize: u.file_size,
    planName: u.plan_name,
    startDate: u.start_date,
    rowsDone: u.rows_done,
    rowsTotal: u.rows_total,
    percent,
    error: u.status === 'expired' ? UPLOAD_EXPIRED : u.error,
    counts: { total: u.rows_total, valid: u.valid_count, errors: u.error_count, duplicates: u.duplicate_count },
    hasErrorFile: !!u.error_key,
    batchId: u.batch_id,
    createdAt: u.created_at,
    // The confirmation job (status 'confirming'): persons insured so far of those confirmed. It stays
    // below 100 % until the form is recorded and the transaction commits.
    confirmDone: u.confirm_done ?? 0,
    confirmTotal: u.confirm_total ?? 0,
    confirmPercent: confirmed ? 100 : u.status === 'confirming' && u.confirm_total ? Math.min(99, Math.floor((u.confirm_done * 100) / u.confirm_total)) : 0,
    /** The confirmation's answer (as the synchronous confirmation of a manual roster gives it), once confirmed. */
    confirmResult: confirmed ? (u.confirm_result ?? null) : null,
  };
}

/** A plan on sale priced per month (roster cover), or a 400 on planName. */
export async function rosterPlan(q: Queryable, planName: string) {
  const plan = planName ? await findPlan(q, planName) : undefined;
  if (!plan || !plan.onSale || plan.unit !== 'month') {
    throw badInput(planName ? '请选择在售的按月计费保险方案' : '请选择保险方案', [
      { field: 'planName', message: planName ? '该保险方案不存在或已停售' : '请选择保险方案' },
    ]);
  }
  return plan;
}

/**
 * ID cards (upper case) that already hold cover of this plan overlapping [startDate, its end]: the
 * rule createInsuranceBatch enforces, so the preview shows them before anything is charged.
 */
export async function coveredIdCards(
  q: Queryable,
  businessId: string,
  plan: { id: string; name: string },
  startDate: string,
  idCards: string[],
): Promise<Set<string>> {
  const { endDate } = coverPeriod('roster', startDate);
  const cover = overlapsCoverSql({ planId: '$2', planName: '$3', start: '$4', end: '$5' });
  const out = new Set<string>();
  // A semi-join of the given cards (stored cards are upper case, as every write path stores them): the
  // planner, which takes the JSON's cards for about 100 rows, probes the (business_id, id_card) index once
  // per card when the business has many records and hashes the cards when it has few. A LATERAL … LIMIT 1
  // per card did the same on a large table (≈ 8 ms per 2,000 cards here) but, on a small one, scanned it
  // once per card (≈ 24 ms against 1.6 ms). The cards travel as one JSON parameter, as createInsuranceBatch
  // sends its rows (the driver would escape each one). In slices of PROBE_SLICE cards: on PGlite, which runs
  // one statement at a time, 50,000 cards in one statement held every other request for most of a second.
  for (let i = 0; i < idCards.length; i += PROBE_SLICE) {
    const rows = await q.query<{ id_card: string }>(
      `SELECT DISTINCT id_card FROM insure_records
        WHERE business_id = $1 AND id_card IN (SELECT json_array_elements_text($6::json)) AND ${cover}`,
      [businessId, plan.id, plan.name, startDate, endDate, JSON.stringify(idCards.slice(i, i + PROBE_SLICE).map((c) => c.toUpperCase()))],
    );
    for (const r of rows) out.add(r.id_card);
  }
  return out;
}

const PROBE_SLICE = 2000;

/**
 * The file's ID numbers the upload refuses, as the parse's probe answers them: already covered (a plain
 * card, 「该人员已在保」) or outside the plan's insurable ages on the cover start ([card, reason], an
 * error of the 身份证号 cell) — the rules createInsuranceBatch enforces at confirmation.
 */
export async function refusedIdCards(
  q: Queryable,
  businessId: string,
  plan: { id: string; name: string } & AgeRange,
  startDate: string,
  idCards: string[],
): Promise<ProbedKey[]> {
  const lookup = coveredIdCards(q, businessId, plan, startDate, idCards);
  lookup.catch(() => undefined); // awaited below
  // The ages are judged while the database answers, a slice at a time so other requests go between.
  const aged: Array<[string, string]> = [];
  for (let i = 0; i < idCards.length; i += PROBE_SLICE) {
    for (const c of idCards.slice(i, i + PROBE_SLICE)) {
      const why = ageProblem(c, startDate, plan);
      if (why) aged.push([c, why]);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const covered = await lookup;
  return [...covered, ...aged.filter(([c]) => !covered.has(c.toUpperCase()))];
}

/** The head of a parsed upload's result (insure_uploads.result). */
export async function loadHead(q: Queryable, uploadId: number): Promise<ResultHead> {
  const [r] = await q.query<{ result: ResultHead }>('SELECT result FROM insure_uploads WHERE id = $1', [uploadId]);
  return r.result;
}

/** The upload's pages (those of the parse that finished it, pages_token). */
const PAGES = `FROM insure_upload_pages p JOIN insure_uploads u ON u.id = p.upload_id AND p.token = u.pages_token WHERE p.upload_id = $1`;

/** One page of a parsed upload as stored (JSON text, passed through without parsing), or null. */
export async function loadPageText(q: Queryable, uploadId: number, page: number): Promise<string | null> {
  const [r] = await q.query<{ data: string }>(`SELECT p.data ${PAGES} AND p.page = $2`, [uploadId, page]);
  return r?.data ?? null;
}

/** Head and every page of a parsed upload, as one UploadResult (the confirmation's input). */
export async function loadResult(q: Queryable, uploadId: number): Promise<UploadResult> {
  const head = await loadHead(q, uploadId);
  const pages = await q.query<{ data: string }>(`SELECT p.data ${PAGES} ORDER BY p.page`, [uploadId]);
  const out: UploadResult = { columns: head.columns, headerRow: head.headerRow, unknownHeaders: head.unknownHeaders, total: head.total, rowNumbers: [], rows: [], errors: [], duplicates: [] };
  for (const { data: text } of pages) {
    const data = JSON.parse(text) as RosterPage;
    for (const n of data.rowNumbers) out.rowNumbers.push(n);
    for (const r of data.rows) out.rows.push(r);
    for (const e of data.errors) out.errors.push(e);
    for (const d of data.duplicates) out.duplicates.push(d);
  }
  return out;
}
