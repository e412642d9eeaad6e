import { randomBytes } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ATTACHMENT_MESSAGES,
  CLAIM_ATTACHMENT_EXTS,
  CLAIM_ATTACHMENT_MAX_BYTES,
  CLAIM_ATTACHMENT_REFUSED,
  isRasterImage,
} from '../../shared/attachments.ts';
import { hashRequest, localParts, withIdempotency } from '../domain/index.ts';
import { checkUpload, cleanFileName, downloadHeaders, extensionOf } from '../files/checks.ts';
import type { FileStorage } from '../files/storage.ts';
import { badInput, HttpError, notFound, ok } from '../http/errors.ts';
import { idempotencyKey } from './idempotency-key.ts';

/** Uploads not yet on a claim, per uploader and business; beyond this an upload is refused. */
export const MAX_PENDING_ATTACHMENTS = 100;
/** Uploads never submitted with a claim are removed after this many hours (on a later upload). */
export const PENDING_TTL_HOURS = 24;

interface AttachmentRow {
  id: number;
  claim_id: number | null;
  file_name: string;
  ext: string;
  mime: string;
  size_bytes: number;
  storage_key: string;
  uploader_id: number;
  created_at: string;
}

/** What the API says about an attachment (never its storage key). */
export function attachmentOut(r: AttachmentRow) {
  return {
    id: Number(r.id),
    claimId: r.claim_id === null ? null : Number(r.claim_id),
    fileName: r.file_name,
    mime: r.mime,
    size: Number(r.size_bytes),
    isImage: isRasterImage(r.file_name),
    createdAt: r.created_at,
  };
}

const COLUMNS = `id, claim_id, file_name, ext, mime, size_bytes, storage_key, uploader_id,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at`;

const fileError = (message: string) => badInput(message, [{ field: 'file', message }]);

function parseId(raw: string): number {
  const id = Number(raw);
  return Number.isInteger(id) && id >= 1 && id <= 2147483647 ? id : 0;
}

/** Storage key: opaque, per business and month; the user's file name stays in the database. */
function storageKey(businessId: string, ext: string): string {
  const { date } = localParts(new Date());
  const safeBiz = businessId.replace(/[^A-Za-z0-9_-]/g, '_');
  return `claims/${safeBiz}/${date.slice(0, 7).replace('-', '/')}/${randomBytes(16).toString('hex')}.${ext}`;
}

/**
 * Claim attachments: upload (multipart, checked by extension and by bytes), list per claim, serve
 * (business-scoped; raster images inline with their image type, PDFs as attachments, nosniff and a
 * sandbox CSP on everything) and delete while not yet on a claim. A claim links them when it is
 * submitted (src/server/domain/attachments.ts).
 */
export default async function claimAttachmentRoutes(app: FastifyInstance, opts: { storage?: FileStorage } = {}) {
  const { db } = app.deps;
  const storage = opts.storage ?? app.deps.files;
  // Inside this plugin only; the JSON body parser of the other routes is untouched.
  // One byte over the limit is read, so an oversized file is recognised even if the parser only truncates it.
  const limits = { fileSize: CLAIM_ATTACHMENT_MAX_BYTES + 1, files: 1, fields: 4, parts: 5 };
  await app.register(multipart, { limits, throwFileSizeLimit: true });

  async function rowOf(businessId: string, rawId: string): Promise<AttachmentRow> {
    const id = parseId(rawId);
    const rows = id
      ? await db.query<AttachmentRow>(`SELECT ${COLUMNS} FROM claim_attachments WHERE business_id = $1 AND id = $2`, [businessId, id])
      : [];
    if (!rows[0]) throw notFound(`当前企业下不存在该理赔材料（ID：${rawId}）`);
    return rows[0];
  }

  /** Removes this business's uploads that were never submitted with a claim (rows, then files). */
  async function pruneStale(businessId: string): Promise<void> {
    const gone = await db.query<{ storage_key: string }>(
      `DELETE FROM claim_attachments WHERE business_id = $1 AND claim_id IS NULL
          AND created_at < now() - make_interval(hours => $2) RETURNING storage_key`,
      [businessId, PENDING_TTL_HOURS],
    );
    for (const g of gone) await storage.delete(g.storage_key).catch(() => undefined);
  }

  app.post(
    '/api/claim-attachments',
    {
      config: { auth: 'business' },
      bodyLimit: CLAIM_ATTACHMENT_MAX_BYTES + 256 * 1024,
      schema: { tags: ['claims'], summary: '上传理赔材料（multipart/form-data，字段 file；图片或 PDF，单个不超过 10 MB）' },
    },
    async (req: FastifyRequest, reply: FastifyReply) => {
      if (!req.isMultipart()) throw fileError('请以 multipart/form-data 方式上传文件');
      const part = await req.file({ limits, throwFileSizeLimit: true }).catch((err: { code?: string }) => {
        if (err?.code === 'FST_FILES_LIMIT' || err?.code === 'FST_PARTS_LIMIT') throw fileError('每次只能上传一个文件');
        throw fileError('上传内容无法读取，请重新选择文件');
      });
      if (!part) throw fileError('请选择要上传的文件');
      const fileName = cleanFileName(part.filename ?? '');
      const ext = extensionOf(fileName);
      if (CLAIM_ATTACHMENT_REFUSED.includes(ext)) {
        part.file.resume();
        throw fileError(ATTACHMENT_MESSAGES.svg);
      }
      let buffer: Buffer;
      try {
        buffer = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileError(ATTACHMENT_MESSAGES.tooLarge);
        throw err;
      }
      const check = await checkUpload({ fileName, buffer, groups: CLAIM_ATTACHMENT_EXTS, maxBytes: CLAIM_ATTACHMENT_MAX_BYTES });
      if (!check.ok) throw fileError(check.message);

      const biz = req.business.businessId;
      const [{ n }] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM claim_attachments WHERE business_id = $1 AND uploader_id = $2 AND claim_id IS NULL',
        [biz, req.user.id],
      );
      if (n >= MAX_PENDING_ATTACHMENTS) throw fileError(`待提交的理赔材料已达 ${MAX_PENDING_ATTACHMENTS} 个，请先提交理赔申请或删除不需要的文件`);

      // The bytes first (all-or-nothing put), then the row in one transaction; a failed or replayed
      // write removes the bytes it stored.
      const stored = await storage.put(storageKey(biz, check.ext), buffer);
      const insert = async (tx: typeof db) => {
        const [row] = await tx.query<AttachmentRow>(
          `INSERT INTO claim_attachments (business_id, file_name, ext, mime, size_bytes, sha256, storage_key, uploader_id)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8) RETURNING ${COLUMNS}`,
          [biz, fileName, check.ext, check.mime, stored.size, stored.sha256, stored.key, req.user.id],
        );
        return attachmentOut(row);
      };
      const key = idempotencyKey(req);
      try {
        if (!key) {
          const out = ok(await db.tx(insert));
          await pruneStale(biz).catch(() => undefined);
          return out;
        }
        const r = await withIdempotency(
          db,
          { userId: req.user.id, key, method: 'POST', path: '/api/claim-attachments', requestHash: hashRequest({ biz, fileName, sha256: stored.sha256 }) },
          async (tx) => ({ status: 200, body: ok(await insert(tx)) }),
        );
        if (r.replayed) await storage.delete(stored.key);
        reply.header('idempotent-replayed', String(r.replayed));
        return reply.status(r.status).send(r.body);
      } catch (err) {
        await storage.delete(stored.key).catch(() => undefined);
        throw err;
      }
    },
  );

  app.get<{ Params: { id: string }; Querystring: { download?: string } }>(
    '/api/claim-attachments/:id/content',
    { config: { auth: 'business', response: { file: true } }, schema: { tags: ['claims'], summary: '理赔材料内容（图片可直接显示；download=1 时作为附件下载）' } },
    async (req, reply) => {
      const row = await rowOf(req.business.businessId, req.params.id);
      const download = req.query.download === '1' || req.query.download === 'true';
      // Raster images carry their real image type (inline unless a download is asked for); a PDF is
      // application/pdf, always as an attachment; nothing else is ever stored for claims.
      reply.headers(downloadHeaders(row.file_name, row.ext, { imagePreview: !download }));
      reply.header('Content-Length', String(row.size_bytes));
      return reply.send(await storage.get(row.storage_key));
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/claim-attachments/:id',
    { config: { auth: 'business' }, schema: { tags: ['claims'], summary: '删除尚未提交的理赔材料' } },
    async (req) => {
      const row = await rowOf(req.business.businessId, req.params.id);
      if (row.claim_id !== null) throw new HttpError(409, 40900, '该文件已随理赔申请提交，不能删除');
      if (Number(row.uploader_id) !== Number(req.user.id)) throw new HttpError(403, 40300, '只能删除自己上传的文件');
      const gone = await db.query('DELETE FROM claim_attachments WHERE id = $1 AND claim_id IS NULL RETURNING id', [row.id]);
      if (gone.length === 0) throw new HttpError(409, 40900, '该文件已随理赔申请提交，不能删除');
      await storage.delete(row.storage_key);
      return ok({});
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/claims/:id/attachments',
    { config: { auth: 'business' }, schema: { tags: ['claims'], summary: '理赔申请的材料列表' } },
    async (req) => {
      const biz = req.business.businessId;
      const id = parseId(req.params.id);
      const claim = id ? await db.query('SELECT id FROM claims WHERE business_id = $1 AND id = $2', [biz, id]) : [];
      if (!claim[0]) throw notFound(`当前企业下不存在该理赔申请（ID：${req.params.id}）`);
      const rows = await db.query<AttachmentRow>(
        `SELECT ${COLUMNS} FROM claim_attachments WHERE business_id = $1 AND claim_id = $2 ORDER BY id`,
        [biz, id],
      );
      return ok({ list: rows.map(attachmentOut) });
    },
  );
}
