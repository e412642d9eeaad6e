/**
 * Roster upload (名单上传): template, upload, background parse status, preview, error workbook and
 * original file. Confirmation (the only step that insures anyone) is insure-upload-confirm.ts.
 * Flow and limits: docs/roster-upload.md.
 */
import { createHash, randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { coverStartError, earliestCoverStart, hashRequest, localParts, MAX_BATCH_ROWS, quoteInsurance, withIdempotency, type Quote } from '../domain/index.ts';
import { checkUpload, cleanFileName, downloadHeaders, ROSTER_UPLOAD_TYPES } from '../files/checks.ts';
import { prepareParseCode, prewarmParseWorker } from '../files/parse-in-worker.ts';
import { ROSTER_VALIDATOR } from '../files/roster-schema.ts';
import { FileNotFoundError } from '../files/storage.ts';
import { MAX_BYTES, MAX_ROWS, tooLargeMessage } from '../files/types.ts';
import { templateWorkbook } from '../files/workbooks.ts';
import { badInput, HttpError, notFound, ok, okText } from '../http/errors.ts';
import type { Business } from '../http/types.ts';
import { maskPhone } from '../util.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { handOver } from './insure-upload-handoff.ts';
import insureUploadConfirmRoutes from './insure-upload-confirm.ts';
import { pendingBytes, purgeUploads, quotaMessage, uploadQuotaBytes } from './insure-upload-purge.ts';
import { startParseQueue } from './insure-upload-queue.ts';
import insureUploadReadRoutes from './insure-upload-read.ts';
import { loadHead, loadPageText, loadUpload, readUpload, rosterColumns, rosterPlan, UPLOAD_COLS, UPLOAD_EXPIRED, uploadView, type UploadRow } from './insure-upload-store.ts';
import { waitForChange } from './insure-upload-wait.ts';

const TAGS = ['insure-uploads'];
const MAX_FILE_NAME = 200;
const PURGE_EVERY_MS = 10 * 60_000;

/** Money of a quote in yuan, as the API exposes amounts. */
export function quoteView(q: Quote) {
  const y = (c: number) => c / 100;
  return {
    planName: q.planName,
    people: q.people,
    orders: q.orders,
    months: q.units,
    unitPrice: y(q.unitPriceCents),
    perPerson: y(q.unitPriceCents * q.units),
    total: y(q.totalCents),
    balance: y(q.balanceCents),
    balanceAfter: q.chargeForm === 'prepaid' ? y(q.balanceCents - q.totalCents) : null,
    chargeForm: q.chargeForm,
    enough: q.enough,
    startDate: q.startDate,
    endDate: q.endDate,
    startError: q.startError,
  };
}

async function quoteFor(db: FastifyInstance['deps']['db'], biz: Business, planName: string, startDate: string, people: number) {
  if (people < 1) return { quote: null, quoteError: '没有可投保的人员' };
  if (people > MAX_ROWS) return { quote: null, quoteError: `每次最多投保 ${MAX_ROWS} 人，当前有效 ${people} 人，请拆分文件后分批上传` };
  // More than MAX_BATCH_ROWS persons are confirmed as several orders in one transaction; the quote is their total.
  return { quote: quoteView(await quoteInsurance(db, biz, { planId: planName, startDate, people, maxPeople: MAX_ROWS })), quoteError: null };
}

export interface Multipart {
  file?: { name: string; buffer: Buffer };
  fields: Record<string, string>;
}

/** Reads the one file and the text fields of a multipart body; limits answer 413/400 in Chinese. */
export async function readMultipart(req: FastifyRequest): Promise<Multipart> {
  if (!req.isMultipart()) throw badInput('请以 multipart/form-data 上传文件', [{ field: 'file', message: '请选择要上传的文件' }]);
  const out: Multipart = { fields: {} };
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_BYTES, files: 1, fields: 10, fieldSize: 1000, parts: 12 } })) {
      if (part.type === 'file') out.file = { name: part.filename ?? '', buffer: await part.toBuffer() };
      else if (typeof part.value === 'string') out.fields[part.fieldname] = part.value;
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, 41300, tooLargeMessage(), [{ field: 'file', message: tooLargeMessage() }]);
    if (code === 'FST_FILES_LIMIT') throw badInput('一次只能上传 1 个文件', [{ field: 'file', message: '一次只能上传 1 个文件' }]);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badInput('上传内容过多');
    throw err;
  }
  return out;
}

function storageKey(businessId: string, ext: string): string {
  const { date } = localParts(new Date());
  return `uploads/${businessId.replace(/[^A-Za-z0-9_-]/g, '_')}/${date.slice(0, 7).replace('-', '/')}/${randomUUID()}.${ext}`;
}

export default async function insureUploadRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  const { registry } = app.deps.entities;
  const storage = app.deps.files;
  // The parse process's code as plain JavaScript, made now rather than at the first upload.
  prepareParseCode([ROSTER_VALIDATOR]);
  const queue = startParseQueue({ db, registry, storage, log: app.log });
  // Files of uploads nobody confirmed expire (any gateway process may purge; see insure-upload-purge.ts).
  const purge = () => purgeUploads({ db, storage }).catch((err: unknown) => app.log.warn({ err }, 'upload purge failed'));
  const purger = setInterval(() => void purge(), PURGE_EVERY_MS);
  purger.unref();
  await app.register(multipart, { limits: { fileSize: MAX_BYTES, files: 1 } });
  app.addHook('onClose', async () => {
    clearInterval(purger);
    await queue.close();
  });

  app.get('/api/insure-uploads/config', { config: { auth: 'business' }, schema: { tags: TAGS, summary: '名单上传的限制与最早起保日期' } }, async () =>
    ok({
      earliestStartDate: earliestCoverStart(),
      maxRows: MAX_ROWS,
      maxBytes: MAX_BYTES,
      maxBatchRows: MAX_BATCH_ROWS,
      accept: ROSTER_UPLOAD_TYPES,
      columns: rosterColumns(registry).map((c) => ({ key: c.key, label: c.label, required: !!c.required, note: c.note })),
    }),
  );

  let template: Promise<Buffer> | undefined;
  app.get('/api/insure-uploads/template', { config: { auth: 'business', response: { file: true } }, schema: { tags: TAGS, summary: '下载名单模板（.xlsx）' } }, async (_req, reply) => {
    template ??= templateWorkbook({ title: '名单', columns: rosterColumns(registry) });
    reply.headers(downloadHeaders('名单投保模板.xlsx', 'xlsx'));
    return reply.send(await template);
  });

  app.get<{ Querystring: { planName?: string; startDate?: string; people?: string } }>(
    '/api/insure-uploads/quote',
    { config: { auth: 'business' }, schema: { tags: TAGS, summary: '费用试算（不扣费）' } },
    async (req) => {
      const plan = await rosterPlan(db, String(req.query.planName ?? '').trim());
      const people = Number(req.query.people);
      if (!Number.isInteger(people)) throw badInput('人数不正确', [{ field: 'people', message: '人数不正确' }]);
      const q = await quoteFor(db, req.business, plan.name, String(req.query.startDate ?? ''), people);
      if (!q.quote) throw badInput(q.quoteError, [{ field: 'people', message: q.quoteError }]);
      return ok(q.quote);
    },
  );

  app.post('/api/insure-uploads', { config: { auth: 'business', response: { status: [202] } }, schema: { tags: TAGS, summary: '上传名单文件（后台解析）' } }, async (req, reply) => {
    prewarmParseWorker(); // loads while the file arrives and is checked
    const { file, fields } = await readMultipart(req);
    const planName = (fields.planName ?? '').trim();
    const startDate = (fields.startDate ?? '').trim();
    const plan = await rosterPlan(db, planName);
    const startErr = coverStartError(startDate);
    if (startErr) throw badInput(startErr, [{ field: 'startDate', message: startErr }]);
    if (!file) throw badInput('请选择要上传的文件', [{ field: 'file', message: '请选择要上传的文件' }]);
    const fileName = cleanFileName(file.name).slice(-MAX_FILE_NAME);
    const check = await checkUpload({ fileName, buffer: file.buffer, groups: ROSTER_UPLOAD_TYPES });
    if (!check.ok) throw badInput(check.message, [{ field: 'file', message: check.message }]);

    const biz = req.business;
    const sha256 = createHash('sha256').update(file.buffer).digest('hex');
    // Stored before the transaction, never inside it: the store may be this very database (stored_files),
    // and on PGlite, which runs one transaction at a time, a write from outside would wait for it forever.
    const fileKey = storageKey(biz.businessId, check.ext);
    await storage.put(fileKey, file.buffer);
    const create = async (q: typeof db): Promise<UploadRow> => {
      const quota = uploadQuotaBytes();
      if ((await pendingBytes(q, biz.businessId)) + file.buffer.length > quota) throw badInput(quotaMessage(quota), [{ field: 'file', message: quotaMessage(quota) }]);
      // Queued ('parsing', no parse_owner): a gateway process's parse queue claims it.
      const [row] = await q.query<UploadRow>(
        `INSERT INTO insure_uploads (business_id, user_id, uploader, file_name, file_ext, file_key, file_size, file_sha256, plan_name, start_date, status, stored_bytes)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,'parsing',$11)
         RETURNING ${UPLOAD_COLS}`,
        [biz.businessId, req.user.id, req.user.phone, fileName, check.ext, fileKey, file.buffer.length, sha256, plan.name, startDate, file.buffer.length],
      );
      return row;
    };
    const key = idempotencyKey(req);
    let row: UploadRow;
    let replayed = false;
    try {
      if (key) {
        const r = await withIdempotency(
          db,
          { userId: req.user.id, key, method: 'POST', path: '/api/insure-uploads', requestHash: hashRequest({ biz: biz.businessId, sha256, fileName, planName, startDate }) },
          async (tx) => ({ status: 202, body: await create(tx) }),
        );
        row = r.body as UploadRow;
        replayed = r.replayed;
        reply.header('idempotent-replayed', String(replayed));
      } else row = await create(db);
    } catch (err) {
      await storage.delete(fileKey).catch(() => undefined); // refused (quota, idempotency): nothing stored
      throw err;
    }
    if (replayed) await storage.delete(fileKey); // the first request's upload keeps its own file
    else {
      handOver(fileKey, file.buffer);
      queue.poke();
    }
    return reply.status(202).send(ok(uploadView(row)));
  });

  app.get<{ Params: { id: string }; Querystring: { waitMs?: string } }>(
    '/api/insure-uploads/:id',
    { config: { auth: 'business' }, schema: { tags: TAGS, summary: '上传记录与解析进度（waitMs：解析或确认进行中时，最多等待该毫秒数直到进度变化）' } },
    async (req) => {
      const bizId = req.business.businessId;
      const first = await loadUpload(db, bizId, req.params.id);
      const waitMs = Number(req.query.waitMs);
      if (!(waitMs > 0) || (first.status !== 'parsing' && first.status !== 'confirming')) return ok(uploadView(first));
      return ok(
        await waitForChange(first.id, first, {
          waitMs,
          read: () => readUpload(db, bizId, first.id),
          view: uploadView,
          gone: () => req.raw.destroyed,
        }),
      );
    },
  );

  /** A parsed upload of the business (its result may be read), or the refusal a parse still running, failed or expired answers. */
  const parsedUpload = async (businessId: string, id: string) => {
    const u = await loadUpload(db, businessId, id);
    if (u.status === 'parsing') throw new HttpError(409, 40900, '文件仍在解析中，请稍候');
    if (u.status === 'failed') throw badInput(u.error ?? '文件解析失败，请重新上传');
    if (u.status === 'expired') throw badInput(UPLOAD_EXPIRED);
    return u;
  };

  app.get<{ Params: { id: string } }>(
    '/api/insure-uploads/:id/preview',
    { config: { auth: 'business' }, schema: { tags: TAGS, summary: '解析结果概览：列、行数、分页与费用，及第 1 页的行（其余页在 /rows 分页读取）' } },
    async (req, reply: FastifyReply) => {
      const u = await parsedUpload(req.business.businessId, req.params.id);
      const [q, head, first] = await Promise.all([quoteFor(db, req.business, u.plan_name, u.start_date, u.valid_count), loadHead(db, u.id), loadPageText(db, u.id, 0)]);
      const data = JSON.stringify({ upload: { ...uploadView(u), uploader: maskPhone(u.uploader) }, ...q, result: head });
      // The first page of rows comes with it (the editor shows it at once, one request less), passed through as /rows does.
      reply.type('application/json; charset=utf-8');
      return reply.send(okText(first === null ? data : `${data.slice(0, -1)},"firstPage":${first}}`));
    },
  );

  app.get<{ Params: { id: string }; Querystring: { page?: string } }>(
    '/api/insure-uploads/:id/rows',
    { config: { auth: 'business' }, schema: { tags: TAGS, summary: '解析结果的一页：行（按列顺序）及其错误与重复' } },
    async (req, reply: FastifyReply) => {
      const u = await parsedUpload(req.business.businessId, req.params.id);
      const raw = req.query.page ?? '0';
      const page = /^\d{1,6}$/.test(raw) ? Number(raw) : -1;
      if (page < 0) throw badInput('页码不正确', [{ field: 'page', message: '页码不正确' }]);
      const data = await loadPageText(db, u.id, page);
      if (data === null) throw notFound(`该文件没有第 ${page + 1} 页`);
      // The stored page (up to PAGE_SIZE rows) is passed through as JSON text, never parsed here.
      reply.type('application/json; charset=utf-8');
      return reply.send(okText(data));
    },
  );

  const sendStored = async (reply: FastifyReply, key: string | null, name: string, ext: string, missing: string) => {
    try {
      if (!key) throw new FileNotFoundError('');
      const stream = await storage.get(key);
      reply.headers(downloadHeaders(name, ext));
      return reply.send(stream);
    } catch (err) {
      if (err instanceof FileNotFoundError) throw notFound(missing);
      throw err;
    }
  };

  app.get<{ Params: { id: string } }>('/api/insure-uploads/:id/errors', { config: { auth: 'business', response: { file: true } }, schema: { tags: TAGS, summary: '下载错误明细（上传的行 + 错误说明列）' } }, async (req, reply) => {
    const u = await loadUpload(db, req.business.businessId, req.params.id);
    const base = u.file_name.replace(/\.[^.]*$/, '') || '名单';
    return sendStored(reply, u.error_key, `${base}-错误明细.xlsx`, 'xlsx', '该文件没有错误行');
  });

  app.get<{ Params: { id: string } }>('/api/insure-uploads/:id/file', { config: { auth: 'business', response: { file: true } }, schema: { tags: TAGS, summary: '下载上传的原文件' } }, async (req, reply) => {
    const u = await loadUpload(db, req.business.businessId, req.params.id);
    return sendStored(reply, u.file_key, u.file_name, u.file_ext, '原文件不存在');
  });

  await app.register(insureUploadReadRoutes, { readMultipart, registry });
  await app.register(insureUploadConfirmRoutes);
}
