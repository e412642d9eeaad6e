import type { FastifyInstance } from 'fastify';
import { extensionOf } from '../files/checks.ts';
import { downloadHeaders } from '../files/download.ts';
import { notFound, ok } from '../http/errors.ts';
import { maskPhone } from '../util.ts';
import { applyMasks, selectList } from '../entity/select.ts';
import type { FormRowResult } from '../../shared/insure-form-rows.ts';

/** Storage key of a historical form's original file. */
export const formFileKey = (batchNo: string) => `forms/${batchNo}`;

type RowOut = FormRowResult;

/**
 * A historical form (insurance batch) in detail: every row with its own result and error, and the
 * original file. Rows recorded at upload time live in insure_batch_rows; a form filed before rows were
 * recorded shows its insurance records, each of which succeeded. A form confirmed from an upload
 * (insure_uploads.batch_id) also has its uploader, plan and original file there.
 */
export default async function insureFormRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  const formRow = app.deps.entities.registry.get('insure-batch-row');
  const storage = app.deps.files;

  async function batchOf(businessId: string, rawId: string) {
    const id = Number(rawId);
    const rows = Number.isInteger(id) && id > 0 && id <= 2147483647
      ? await db.query<{ id: number; batch_no: string; file_name: string }>(
          'SELECT id, batch_no, file_name FROM insure_batches WHERE business_id = $1 AND id = $2',
          [businessId, id],
        )
      : [];
    if (!rows[0]) throw notFound(`当前企业下不存在该历史表单（ID：${rawId}）`);
    return rows[0];
  }

  app.get<{ Params: { id: string }; Querystring: { current?: string; pageSize?: string; result?: string } }>(
    '/api/insure-batches/:id/rows',
    { config: { auth: 'business' }, schema: { tags: ['insure-batches'], summary: '历史表单的逐行结果' } },
    async (req) => {
      const batch = await batchOf(req.business.businessId, req.params.id);
      const current = Math.max(1, Math.min(100000, Number(req.query.current) || 1));
      const pageSize = Math.max(1, Math.min(100, Number(req.query.pageSize) || 20));
      const result = req.query.result === 'success' || req.query.result === 'failed' ? req.query.result : null;
      const recorded = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM insure_batch_rows WHERE batch_id = $1', [batch.id]);
      // Every field of the form-row entity (the person's fields it copies, result, error); a form filed
      // before rows were recorded shows its insurance records, each of which succeeded.
      const source = recorded[0].n > 0
        ? `SELECT ${selectList(formRow)} FROM insure_batch_rows WHERE batch_id = $1`
        : `SELECT (row_number() OVER (ORDER BY id))::int AS "rowNo", person_name AS name, id_card AS "idCard",
                  'success' AS result, NULL AS error FROM insure_records WHERE batch_id = $1`;
      const where = result ? 'WHERE result = $2' : '';
      const params: unknown[] = result ? [batch.id, result] : [batch.id];
      const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${source}) r ${where}`, params);
      const list = await db.query<RowOut>(
        `SELECT * FROM (${source}) r ${where} ORDER BY "rowNo" LIMIT ${pageSize} OFFSET ${(current - 1) * pageSize}`,
        params,
      );
      return ok({ list: list.map((r) => applyMasks(formRow, r)), total: n, current, pageSize });
    },
  );

  /** Who uploaded the form, its plan, period and order (uploads and forms filed before them alike). */
  app.get<{ Params: { id: string } }>(
    '/api/insure-batches/:id/info',
    { config: { auth: 'business' }, schema: { tags: ['insure-batches'], summary: '历史表单的上传人、方案、保障期与订单' } },
    async (req) => {
      const batch = await batchOf(req.business.businessId, req.params.id);
      const [up] = await db.query<{ id: number; uploader: string; file_size: number; plan_name: string }>(
        'SELECT id, uploader, file_size, plan_name FROM insure_uploads WHERE batch_id = $1',
        [batch.id],
      );
      const [rec] = await db.query<{ plan_name: string | null; start_date: string | null; end_date: string | null }>(
        `SELECT min(plan_name) AS plan_name, min(effective_date)::text AS start_date, max(expiry_date)::text AS end_date
           FROM insure_records WHERE batch_id = $1`,
        [batch.id],
      );
      // A form over MAX_BATCH_ROWS persons has several orders (docs/roster-upload.md); usually one.
      const orders = await db.query<{ id: number; order_no: string; person_count: number; amount_cents: number; pay_status: string }>(
        'SELECT id, order_no, person_count, amount_cents::float8 AS amount_cents, pay_status FROM orders WHERE batch_id = $1 ORDER BY id',
        [batch.id],
      );
      const order = orders[0];
      const totalCents = orders.reduce((sum, o) => sum + Number(o.amount_cents), 0);
      return ok({
        channel: up ? 'upload' : batch.file_name ? 'file' : 'manual',
        uploadId: up?.id ?? null,
        uploader: up ? maskPhone(up.uploader) : null,
        fileSize: up?.file_size ?? null,
        planName: up?.plan_name ?? rec?.plan_name ?? null,
        startDate: rec?.start_date ?? null,
        endDate: rec?.end_date ?? null,
        orderId: order?.id ?? null,
        orderNo: order?.order_no ?? null,
        amount: order ? totalCents / 100 : null,
        payStatus: order ? (orders.every((o) => o.pay_status === order.pay_status) ? order.pay_status : 'unpaid') : null,
        orders: orders.map((o) => ({ id: o.id, orderNo: o.order_no, people: o.person_count, amount: Number(o.amount_cents) / 100, payStatus: o.pay_status })),
      });
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/insure-batches/:id/file',
    { config: { auth: 'business', response: { file: true } }, schema: { tags: ['insure-batches'], summary: '下载历史表单原文件' } },
    async (req, reply) => {
      const batch = await batchOf(req.business.businessId, req.params.id);
      // An uploaded form keeps its original where the upload stored it; older forms under forms/<batchNo>.
      const [up] = await db.query<{ file_key: string; file_name: string; file_ext: string }>(
        'SELECT file_key, file_name, file_ext FROM insure_uploads WHERE batch_id = $1',
        [batch.id],
      );
      const key = up?.file_key ?? formFileKey(batch.batch_no);
      const name = up?.file_name ?? batch.file_name;
      if (!name || !(await storage.stat(key))) throw notFound('原文件不存在（该表单为在线录入，没有上传文件）');
      reply.headers(downloadHeaders(name, up?.file_ext ?? extensionOf(name)));
      return reply.send(await storage.get(key));
    },
  );
}
