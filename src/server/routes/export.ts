import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { localParts } from '../domain/util.ts';
import { QueryError } from '../entity/query.ts';
import { exportLists, type ExportColumn, type ExportList } from '../export/lists.ts';
import { countRows, exportRows, listFilters } from '../export/rows.ts';
import { writeCsv, writeXlsx } from '../export/writers.ts';
import { contentDispositionAttachment } from '../files/download.ts';
import { badInput } from '../http/errors.ts';

/** Most rows one export may hold; beyond it the user narrows the filters. */
export const EXPORT_MAX_ROWS = 200_000;

const TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
} as const;

/** The requested columns (comma-separated keys) in the requested order, or the list's default columns. */
export function pickColumns(list: ExportList, raw: unknown): ExportColumn[] {
  const byKey = new Map(list.columns.map((c) => [c.key, c]));
  const keys = typeof raw === 'string' && raw.trim() ? raw.split(',').map((s) => s.trim()).filter(Boolean) : list.defaultColumns;
  const unknown = keys.filter((k) => !byKey.has(k));
  if (unknown.length) {
    const message = `导出列不存在：${unknown.join('、')}`;
    throw badInput(message, [{ field: 'columns', message }]);
  }
  if (keys.length === 0) throw badInput('请至少选择一列导出', [{ field: 'columns', message: '请至少选择一列导出' }]);
  return [...new Set(keys)].map((k) => byKey.get(k)!);
}

/**
 * GET /api/<list>/export?format=xlsx|csv&columns=a,b,…&<the list's filters and sort>: the filtered
 * list as a file, streamed while it is read (rows via src/server/export/rows.ts, i.e. the list query
 * itself, masking included). X-Export-Rows carries the row count for the browser's progress
 * (X-Export-Rows-Estimated: true when the list query only estimated it).
 */
export default async function exportRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  for (const list of exportLists(app.deps.entities).values()) {
    app.get<{ Querystring: Record<string, string> }>(
      `/api/${list.api}/export`,
      {
        config: { auth: 'business', response: { file: true } },
        schema: {
          tags: ['export'],
          summary: `导出${list.title}（xlsx 或 csv，筛选条件同列表）`,
          querystring: {
            type: 'object',
            properties: {
              format: { type: 'string', title: '格式', enum: ['xlsx', 'csv'] },
              columns: { type: 'string', title: '导出列（逗号分隔的字段名，按此顺序）' },
            },
          },
        },
      },
      async (req, reply) => {
        const format = req.query.format === 'csv' ? 'csv' : 'xlsx';
        const columns = pickColumns(list, req.query.columns);
        const filters = listFilters(req.query);
        const biz = req.business.businessId;
        let total: number;
        let estimated: boolean;
        try {
          ({ total, estimated } = await countRows(db, list.entity, biz, filters));
        } catch (err) {
          if (err instanceof QueryError) throw badInput(err.message, [{ field: err.field, message: err.message }]);
          throw err;
        }
        if (total > EXPORT_MAX_ROWS) {
          const message = `${estimated ? '约' : '共'} ${total} 条，超过单次导出上限 ${EXPORT_MAX_ROWS} 条，请缩小筛选范围后再导出`;
          throw badInput(message, [{ field: 'query', message }]);
        }
        const { date } = localParts(new Date());
        const fileName = `${list.title}-${date.replace(/-/g, '')}.${format}`;
        const out = new PassThrough();
        // Capped by the limit, not by the count: a count may be an estimate, and rows may arrive meanwhile.
        const rows = exportRows(db, list.entity, biz, filters, EXPORT_MAX_ROWS);
        const done = format === 'csv' ? writeCsv(out, columns, rows) : writeXlsx(out, list.title, columns, rows);
        done.catch((err) => {
          req.log.error({ err }, 'export failed');
          out.destroy(err as Error);
        });
        reply.headers({
          'Content-Type': TYPES[format],
          'Content-Disposition': contentDispositionAttachment(fileName),
          'X-Content-Type-Options': 'nosniff',
          'X-Export-Rows': String(total),
          ...(estimated ? { 'X-Export-Rows-Estimated': 'true' } : {}),
          'Cache-Control': 'no-store',
        });
        return reply.send(out);
      },
    );
  }
}
