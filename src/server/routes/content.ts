import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { notFound, ok } from '../http/errors.ts';
import { readContent } from '../services/content.ts';

const CONTENT_DIR = resolve(import.meta.dirname, '../../../content');

/** GET /api/content/:key: public texts (the agreement is read before signing in). */
export default async function contentRoutes(app: FastifyInstance) {
  const dir = process.env.CONTENT_DIR ? resolve(process.env.CONTENT_DIR) : CONTENT_DIR;
  app.get<{ Params: { key: string } }>(
    '/api/content/:key',
    { config: { auth: 'none' }, schema: { tags: ['content'], summary: '内容服务：理赔须知、服务协议等' } },
    async (req) => {
      const item = await readContent(dir, req.params.key);
      if (!item) throw notFound('内容不存在');
      return ok(item);
    },
  );
}
