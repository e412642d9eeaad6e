/**
 * Reading a roster file into rows without storing it (the attendance tab's 导入名单): the same checks and
 * the same reader as the roster upload (extension, bytes and zip bounds; xlsx/xls/csv, encoding
 * detection, header mapping, the template's example row, cells Excel damaged), in a parse worker, for
 * the columns of an entity's roster field (e.g. attendance-submit.rows: the insured-person fields).
 * Small files (the field's maxItems rows) answered at once: no queue, nothing kept.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkUpload, cleanFileName, ROSTER_UPLOAD_TYPES } from '../files/checks.ts';
import { parseRosterInWorker, prewarmParseWorker } from '../files/parse-in-worker.ts';
import { ROSTER_VALIDATOR, rosterColumnsFromFields } from '../files/roster-schema.ts';
import { MAX_ROWS, SheetError } from '../files/types.ts';
import { badInput, ok } from '../http/errors.ts';
import type { EntityRegistry } from '../../shared/entity/registry.ts';
import { rowsFieldOf } from './insure-upload-store.ts';


interface Multipart {
  file?: { name: string; buffer: Buffer };
  fields: Record<string, string>;
}

export default async function insureUploadReadRoutes(app: FastifyInstance, opts: { readMultipart(req: FastifyRequest): Promise<Multipart>; registry: EntityRegistry }) {
  app.post(
    '/api/insure-uploads/read',
    { config: { auth: 'business' }, schema: { tags: ['insure-uploads'], summary: '读取名单文件为行（不保存文件，用于考勤投保导入）' } },
    async (req) => {
      prewarmParseWorker();
      const { file, fields } = await opts.readMultipart(req);
      const target = rowsFieldOf(opts.registry, fields.entity ?? '', fields.field || 'rows');
      if (!target) throw badInput('不支持导入该表单的名单', [{ field: 'entity', message: '不支持导入该表单的名单' }]);
      if (!file) throw badInput('请选择要上传的文件', [{ field: 'file', message: '请选择要上传的文件' }]);
      const check = await checkUpload({ fileName: cleanFileName(file.name), buffer: file.buffer, groups: ROSTER_UPLOAD_TYPES });
      if (!check.ok) throw badInput(check.message, [{ field: 'file', message: check.message }]);
      const columns = rosterColumnsFromFields(target.fields);
      try {
        const p = await parseRosterInWorker({
          buffer: file.buffer,
          ext: check.ext,
          columns,
          // In-file duplicates by the field that identifies a person (the entity's unique field).
          keyColumn: Object.entries(target.fields).find(([, f]) => f.unique)?.[0] ?? '',
          validatorModule: { path: ROSTER_VALIDATOR, exportName: 'createFieldsValidator', args: { fields: target.fields } },
          maxRows: target.maxItems ?? MAX_ROWS,
          rowsOut: true,
          timeoutMs: 30_000,
        }).result;
        return ok({
          columns: columns.map((c) => ({ key: c.key, label: c.label })),
          headerRow: p.headerRow,
          unknownHeaders: p.unknownHeaders,
          counts: p.counts,
          rowNumbers: p.rowNumbers ?? [],
          rows: p.rows ?? [],
          errors: p.errors,
          duplicates: p.duplicates,
        });
      } catch (err) {
        if (err instanceof SheetError) throw badInput(err.message, [{ field: 'file', message: err.message }]);
        throw err;
      }
    },
  );
}
