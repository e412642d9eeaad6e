/**
 * Confirming a roster (上传的文件或在线录入): the rows are re-checked with the entity rules, then one
 * transaction insures them (createInsuranceBatch: balance charged, persons, records, orders) and
 * records the historical form: per-row results (file rows that were not insured are kept as failed
 * with their reason), counts and status, and the upload is linked to its batch. Up to the file limit
 * (MAX_ROWS) is confirmed at once: more than MAX_BATCH_ROWS persons become consecutive orders of at
 * most MAX_BATCH_ROWS, all of the one form, charged all or nothing (docs/roster-upload.md).
 *
 * An upload's confirmation is checked in the request, which marks the upload `confirming` and answers
 * 202 at once; the insuring transaction then runs as a background job with its progress in the
 * database (insure-upload-confirm-job.ts). Rows typed in without a file are insured in the request.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db.ts';
import { coverStartError, createInsuranceBatch, hashRequest, withIdempotency } from '../domain/index.ts';
import type { StoredResponse } from '../domain/idempotency.ts';
import { MAX_ROWS } from '../files/types.ts';
import { badInput, HttpError, ok, type FieldError } from '../http/errors.ts';
import type { Business, User } from '../http/types.ts';
import { rosterRowErrors } from '../files/roster-schema.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { startConfirmJob, type ConfirmJob } from './insure-upload-confirm-job.ts';
import { scheduleTakeover } from './insure-upload-confirm-resume.ts';
import { coveredIdCards, loadResult, loadUpload, rosterFields, rosterPlan, UPLOAD_COLS, UPLOAD_EXPIRED, uploadView, type UploadResult, type UploadRow } from './insure-upload-store.ts';
import type { FormRowResult } from '../../shared/insure-form-rows.ts';
import { labelled } from '../../shared/entity/messages.ts';
import { ageProblem } from '../../shared/insurable-age.ts';
import type { EntityRegistry } from '../../shared/entity/registry.ts';
import { columns as columnsOf, recordset, recordValues, sharedKeys, storedJson, type EntityRecord } from '../entity/record.ts';

export interface ConfirmBody {
  uploadId?: unknown;
  planName?: unknown;
  startDate?: unknown;
  rows?: unknown;
}

interface Candidate {
  /** Sheet row number of the uploaded row, or null for a row added in the console. */
  row: number | null;
  /** The roster fields (the insured-person input fields) as text, by field key; the ID number upper-case. */
  values: EntityRecord & { name: string; idCard: string };
}

type RowResult = FormRowResult;

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : v == null ? '' : String(v).trim());

/** The rows of the body (user-corrected or typed in), checked like the upload's rows. */
function bodyRows(registry: EntityRegistry, raw: unknown): Candidate[] {
  if (!Array.isArray(raw) || raw.length === 0) throw badInput('请至少添加 1 名人员', [{ field: 'rows', message: '请至少添加 1 名人员' }]);
  if (raw.length > MAX_ROWS) {
    const m = `每次最多投保 ${MAX_ROWS} 人，当前 ${raw.length} 人，请分批提交`;
    throw badInput(m, [{ field: 'rows', message: m }]);
  }
  const fields = rosterFields(registry);
  const errors: FieldError[] = [];
  const seen = new Map<string, string>();
  const rows = raw.map((r, i): Candidate => {
    const o = r && typeof r === 'object' && !Array.isArray(r) ? (r as Record<string, unknown>) : {};
    const row = Number.isInteger(o.row) && (o.row as number) > 0 ? (o.row as number) : null;
    const label = row ? `第 ${row} 行` : `第 ${i + 1} 条`;
    const values = cellsOf(fields, (k) => o[k]);
    for (const e of rosterRowErrors(fields, values)) errors.push({ field: `rows[${i}].${e.column}`, message: `${label}：${e.message}` });
    if (values.idCard && !errors.some((e) => e.field === `rows[${i}].idCard`)) {
      const first = seen.get(values.idCard);
      if (first) errors.push({ field: `rows[${i}].idCard`, message: `${label}：身份证号与${first}重复` });
      else seen.set(values.idCard, label);
    }
    return { row, values };
  });
  if (errors.length) throw badInput(`名单中有 ${new Set(errors.map((e) => e.field.split('.')[0])).size} 行数据不正确，未投保，请修改后重新确认`, errors);
  return rows;
}

/** A row's roster fields as trimmed text (typed values such as numbers become their text), by field key. */
function cellsOf(fields: Record<string, unknown>, at: (key: string) => unknown): Candidate['values'] {
  const values: EntityRecord = {};
  for (const k of Object.keys(fields)) values[k] = str(at(k));
  values.idCard = String(values.idCard ?? '').toUpperCase();
  values.name = String(values.name ?? '');
  return values as Candidate['values'];
}

/** Messages of a stored upload's rows with errors or duplicates, by sheet row. */
function problemsByRow(result: UploadResult): Map<number, string> {
  const out = new Map<number, string[]>();
  for (const e of [...result.errors.map((x) => ({ row: x.row, message: labelled(x.label, x.message) })), ...result.duplicates]) {
    out.set(e.row, [...(out.get(e.row) ?? []), e.message]);
  }
  return new Map([...out].map(([k, v]) => [k, v.join('；')]));
}

/** The stored upload's rows: every column the parse kept (the roster fields), by key. */
function storedRows(result: UploadResult): Candidate[] {
  const index = new Map(result.columns.map((c, i) => [c.key, i]));
  const keys = Object.fromEntries(result.columns.map((c) => [c.key, true]));
  return result.rows.map((cells, i) => ({
    row: result.rowNumbers[i],
    values: cellsOf(keys, (k) => cells[index.get(k) ?? -1] ?? ''),
  }));
}

/** Per-row results of the form: insured rows succeed; file rows left out fail with their reason. */
function rowResults(insured: Candidate[], result: UploadResult | null): RowResult[] {
  const out: RowResult[] = [];
  const taken = new Set<number>();
  let next = result ? Math.max(0, ...result.rowNumbers) : 0;
  for (const c of insured) {
    const rowNo = c.row ?? ++next;
    taken.add(rowNo);
    out.push({ ...c.values, rowNo, result: 'success', error: null });
  }
  if (result) {
    const problems = problemsByRow(result);
    for (const c of storedRows(result)) {
      if (c.row === null || taken.has(c.row)) continue;
      out.push({ ...c.values, rowNo: c.row, result: 'failed', error: problems.get(c.row) ?? '未提交投保' });
    }
  }
  return out.sort((a, b) => a.rowNo - b.rowNo);
}

interface Prepared {
  plan: Awaited<ReturnType<typeof rosterPlan>>;
  startDate: string;
  rows: Candidate[];
  /** The stored parse result of the upload being confirmed (null: manual entry). */
  result: UploadResult | null;
  upload: UploadRow | null;
}

/** The upload a confirmation is about: its row and stored parse result (checked for a new confirmation). */
async function uploadOf(tx: Db, biz: Business, body: ConfirmBody, resume?: ResumeOf): Promise<{ upload: UploadRow | null; result: UploadResult | null }> {
  if (resume) {
    // A job taken over: read without a lock (the job's heartbeat and the final guarded UPDATE write the row).
    const [upload] = await tx.query<UploadRow>(`SELECT ${UPLOAD_COLS} FROM insure_uploads WHERE id = $1 AND business_id = $2`, [resume.uploadId, biz.businessId]);
    if (!upload || upload.status !== 'confirming') throw new HttpError(409, 40900, '该文件已不在确认中');
    return { upload, result: await loadResult(tx, upload.id) };
  }
  if (body.uploadId === undefined || body.uploadId === null || body.uploadId === '') return { upload: null, result: null };
  const upload = await loadUpload(tx, biz.businessId, body.uploadId, { lock: true });
  if (upload.status === 'confirmed') throw new HttpError(409, 40900, '该文件已确认投保，请在历史表单中查看');
  // A confirmation whose job died (stale heartbeat) is taken over: the new token locks the old job out.
  if (upload.status === 'confirming' && !upload.confirm_stale) throw new HttpError(409, 40900, '该文件正在确认投保，请稍候');
  if (upload.status === 'parsing') throw new HttpError(409, 40900, '文件仍在解析中，请稍候');
  if (upload.status === 'failed') throw badInput(upload.error ?? '文件解析失败，请重新上传');
  if (upload.status === 'expired') throw badInput(UPLOAD_EXPIRED);
  return { upload, result: await loadResult(tx, upload.id) };
}

/** A confirmation job being taken over by another gateway (insure-upload-confirm-resume.ts). */
export interface ResumeOf {
  uploadId: number;
}

/** Everything checked before anything is insured: plan, start date, the upload's state, the rows. 400/409 otherwise. */
export async function prepare(tx: Db, registry: EntityRegistry, biz: Business, body: ConfirmBody, resume?: ResumeOf): Promise<Prepared> {
  const planName = str(body.planName);
  const startDate = str(body.startDate);
  const plan = await rosterPlan(tx, planName);
  const startErr = coverStartError(startDate);
  if (startErr) throw badInput(startErr, [{ field: 'startDate', message: startErr }]);
  const { upload, result } = await uploadOf(tx, biz, body, resume);

  let rows: Candidate[];
  if (body.rows !== undefined) rows = bodyRows(registry, body.rows);
  else if (result) {
    const problems = problemsByRow(result);
    rows = storedRows(result).filter((c) => !problems.has(c.row!));
    if (rows.length === 0) throw badInput('没有可投保的人员，请修改错误行后再确认', [{ field: 'rows', message: '没有可投保的人员' }]);
  } else throw badInput('请至少添加 1 名人员', [{ field: 'rows', message: '请至少添加 1 名人员' }]);

  // People already covered by this plan in the period: refused by row, nothing stored.
  const covered = await coveredIdCards(tx, biz.businessId, plan, startDate, rows.map((r) => r.values.idCard));
  if (covered.size) {
    const errors = rows.flatMap((r, i) =>
      covered.has(r.values.idCard)
        ? [{ field: `rows[${i}].idCard`, message: `${r.row ? `第 ${r.row} 行` : `第 ${i + 1} 条`}：${r.values.name} 在该期间已有同一方案的保障` }]
        : [],
    );
    throw new HttpError(409, 40900, `${covered.size} 名人员在该期间已有同一方案的保障，未投保，请移除后重新确认`, errors);
  }
  // Outside the plan's insurable ages (the rule createInsuranceBatch holds): refused by row with the reason.
  const tooOld = rows.flatMap((r, i) => {
    const why = ageProblem(r.values.idCard, startDate, plan);
    return why ? [{ field: `rows[${i}].idCard`, message: `${r.row ? `第 ${r.row} 行` : `第 ${i + 1} 条`}：${r.values.name}，${why}` }] : [];
  });
  if (tooOld.length) throw badInput(`${tooOld.length} 人不在该方案的可投保年龄之内，未投保，请移除或修改后重新确认`, tooOld);
  return { plan, startDate, rows, result, upload };
}

/**
 * The insuring transaction: the batch (charge, persons, records, orders), the form's per-row results
 * and counts, and for an upload its confirmation — only if it is still this job's (`token`), so a job
 * given back as interrupted can never commit.
 */
export async function insure(tx: Db, registry: EntityRegistry, biz: Business, p: Prepared, job?: { token: string; onProgress(done: number): void }) {
  const { plan, startDate, rows, result, upload } = p;
  const batch = await createInsuranceBatch(
    tx,
    biz,
    { source: 'roster', planId: plan.name, startDate, rows: rows.map((r) => r.values), fileName: upload?.file_name ?? '', maxRows: MAX_ROWS },
    { entities: registry, ...(job ? { onProgress: (done: number) => job.onProgress(done) } : {}) },
  );
  const results = rowResults(rows, result);
  const failed = results.filter((r) => r.result === 'failed').length;
  // The form's rows keep every field they share with the person (insure-batch-row `fieldsFrom`), as submitted.
  const formRow = registry.get('insure-batch-row');
  const keys = sharedKeys(registry.get('insured-person'), formRow);
  await tx.query(
    `INSERT INTO insure_batch_rows (business_id, batch_id, row_no, ${columnsOf(formRow, keys).join(', ')}, result, error)
     SELECT $1, $2, t."rowNo", ${recordValues(keys).join(', ')}, t.result, t.error
       FROM ${recordset(formRow, keys, '$3', 't', { rowNo: 'int', result: 'text', error: 'text' })}`,
    [biz.businessId, batch.batchId, storedJson(formRow, results, keys, (r) => ({ rowNo: r.rowNo, result: r.result, error: r.error }))],
  );
  await tx.query(`UPDATE insure_batches SET total = $2, succeeded = $3, failed = $4, status = $5 WHERE id = $1`, [
    batch.batchId,
    results.length,
    rows.length,
    failed,
    failed ? 'partially_failed' : 'done',
  ]);
  const answer = {
    batchId: batch.batchId,
    batchNo: batch.batchNo,
    orderNo: batch.orderNo,
    orders: batch.orders.map((o) => ({ orderNo: o.orderNo, people: o.people, amount: o.amountCents / 100 })),
    planName: plan.name,
    people: batch.people,
    amount: batch.amountCents / 100,
    balanceAfter: batch.balanceAfterCents === undefined ? null : batch.balanceAfterCents / 100,
    payStatus: batch.payStatus,
    startDate: batch.startDate,
    endDate: batch.endDate,
    total: results.length,
    succeeded: rows.length,
    failed,
  };
  if (upload) {
    const done = await tx.query(
      `UPDATE insure_uploads SET status = 'confirmed', batch_id = $2, plan_name = $3, start_date = $4, confirm_done = confirm_total,
              confirm_token = NULL, confirm_result = $6::jsonb, error = NULL, updated_at = now()
        WHERE id = $1 AND status = 'confirming' AND confirm_token = $5 RETURNING id`,
      [upload.id, batch.batchId, plan.name, startDate, job?.token ?? null, JSON.stringify(answer)],
    );
    if (!done.length) throw new Error(`upload ${upload.id}: confirmation job no longer holds the upload`);
  }
  return answer;
}

/**
 * Marks a checked upload `confirming` for a new job; the 202 answer is its status view. What was
 * confirmed is kept with it, so another gateway can run the job again if this one dies.
 */
async function accept(tx: Db, p: Prepared & { upload: UploadRow }, token: string, body: ConfirmBody) {
  const input: ConfirmBody = { planName: body.planName, startDate: body.startDate, ...(body.rows !== undefined ? { rows: body.rows } : {}) };
  const [row] = await tx.query<UploadRow>(
    `UPDATE insure_uploads SET status = 'confirming', confirm_token = $2, confirm_done = 0, confirm_total = $3, confirm_result = NULL,
            error = NULL, confirm_input = $4::jsonb, confirm_attempts = 0, updated_at = now()
      WHERE id = $1 RETURNING ${UPLOAD_COLS}`,
    [p.upload.id, token, p.rows.length, JSON.stringify(input)],
  );
  return uploadView(row);
}

export default async function insureUploadConfirmRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  const { registry } = app.deps.entities;
  const jobs = new Set<Promise<void>>();
  // Jobs of a gateway that died are taken over here (insure-upload-confirm-resume.ts).
  const stopTakeover = scheduleTakeover(db, registry, app.log, jobs);
  // A closing gateway lets its running confirmations finish (their state is in the database either way).
  app.addHook('onClose', async () => {
    stopTakeover();
    await Promise.allSettled([...jobs]);
  });

  app.post<{ Body: ConfirmBody }>(
    '/api/insure-uploads/confirm',
    {
      config: { auth: 'business', response: { status: [200, 202] } },
      bodyLimit: 16 * 1024 * 1024,
      schema: { tags: ['insure-uploads'], summary: '确认投保：上传的名单在后台投保（202，轮询上传状态），在线录入直接返回结果' },
    },
    async (req, reply) => {
      const body = (req.body ?? {}) as ConfirmBody;
      const biz = req.business;
      const user: User = req.user;
      let job: ConfirmJob | undefined;
      // An upload is accepted (202) and insured by a background job; manual rows are insured at once (200).
      const run = async (tx: Db): Promise<StoredResponse> => {
        const p = await prepare(tx, registry, biz, body);
        if (!p.upload) return { status: 200, body: ok(await insure(tx, registry, biz, p)) };
        const token = randomUUID();
        const view = await accept(tx, { ...p, upload: p.upload }, token, body);
        job = { uploadId: p.upload.id, token, run: (jtx, onProgress) => insure(jtx, registry, biz, p, { token, onProgress }) };
        return { status: 202, body: ok(view) };
      };
      const key = idempotencyKey(req);
      const r = key
        ? await withIdempotency(
            db,
            { userId: user.id, key, method: 'POST', path: '/api/insure-uploads/confirm', requestHash: hashRequest({ biz: biz.businessId, body }) },
            run,
          )
        : { ...(await db.tx(run)), replayed: false };
      if (key) reply.header('idempotent-replayed', String(r.replayed));
      // Started only once the acceptance is committed (a replay starts nothing).
      if (job) {
        const done = startConfirmJob({ db, log: req.log }, job);
        jobs.add(done);
        void done.finally(() => jobs.delete(done));
      }
      return reply.status(r.status).send(r.body);
    },
  );
}
