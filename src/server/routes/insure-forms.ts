import type { FastifyInstance } from 'fastify';
import { extensionOf } from '../files/checks.ts';
import { downloadHeaders } from '../files/download.ts';
import { LocalFileStorage } from '../files/storage.ts';
import { notFound, ok } from '../http/errors.ts';
import { maskIdCard } from '../util.ts';

/** Storage key of a historical form's original file. */
export const formFileKey = (batchNo: string) => `forms/${batchNo}`;

interface RowOut {
  rowNo: number;
  name: string;
  idCard: string;
  phone: string;
  jobType: string;
  result: 'success' | 'failed';
  error: string | null;
}

/**
 * A historical form (insurance batch) in detail: every row with its own result and error, and the
 * original file. Rows recorded at upload time live in insure_batch_rows; a form filed before rows were
 * recorded shows its insurance records, each of which succeeded.
 */
export default async function insureFormRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  const storage = new LocalFileStorage();

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
      const source = recorded[0].n > 0
        ? `SELECT row_no AS "rowNo", name, id_card AS "idCard", coalesce(phone, '') AS phone, coalesce(job_type, '') AS "jobType",
                  result, error FROM insure_batch_rows WHERE batch_id = $1`
        : `SELECT (row_number() OVER (ORDER BY id))::int AS "rowNo", person_name AS name, id_card AS "idCard", '' AS phone,
                  '' AS "jobType", 'success' AS result, NULL AS error FROM insure_records WHERE batch_id = $1`;
      const where = result ? 'WHERE result = $2' : '';
      const params: unknown[] = result ? [batch.id, result] : [batch.id];
      const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${source}) r ${where}`, params);
      const list = await db.query<RowOut>(
        `SELECT * FROM (${source}) r ${where} ORDER BY "rowNo" LIMIT ${pageSize} OFFSET ${(current - 1) * pageSize}`,
        params,
      );
      return ok({ list: list.map((r) => ({ ...r, idCard: maskIdCard(r.idCard) })), total: n, current, pageSize });
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/insure-batches/:id/file',
    { config: { auth: 'business' }, schema: { tags: ['insure-batches'], summary: '下载历史表单原文件' } },
    async (req, reply) => {
      const batch = await batchOf(req.business.businessId, req.params.id);
      const key = formFileKey(batch.batch_no);
      if (!batch.file_name || !(await storage.stat(key))) throw notFound('原文件不存在（该表单为在线录入，没有上传文件）');
      reply.headers(downloadHeaders(batch.file_name, extensionOf(batch.file_name)));
      return reply.send(await storage.get(key));
    },
  );
}
