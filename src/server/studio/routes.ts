/**
 * The schema studio's API (docs/schema-studio.md). Registered only on an explicit development start
 * (`npm run dev`): a production gateway has no route that writes to schemas/, and /studio answers 404.
 *
 *   GET  /api/studio/files     every schema file's text, the meta schemas, where each file is used
 *   POST /api/studio/preview   a draft's file diffs, its problems, and what the database would undergo
 *   POST /api/studio/save      the same, then written to disk (with its migration file) and codegen
 *   POST /api/studio/pages     the changes that put an entity in the menu (list, form, detail, routes)
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { generate } from '../../../scripts/codegen.ts';
import { pagesFor } from '../../../scripts/codegen-emit.ts';
import { loadSchemaFiles } from '../../schema/load-node.ts';
import { schemaUsage } from '../../schema/usage.ts';
import { ICON_NAMES } from '../../schema/types.ts';
import { badInput, ok } from '../http/errors.ts';
import { draftOf, StudioError, writeDraft, type StudioChange, type StudioMigration } from './drafts.ts';
import { previewDatabase } from './preview.ts';

interface DraftBody {
  changes?: StudioChange[];
  migration?: StudioMigration;
}

const config = { auth: 'user' as const };
const tags = ['studio'];

/** Every file under schemas/ as text, keyed by repo-relative path. */
function schemaTexts(root: string, dir = 'schemas'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${d.name}`;
    if (d.isDirectory()) Object.assign(out, schemaTexts(root, rel));
    else if (/\.(json|sql|md)$/.test(d.name)) out[rel] = readFileSync(join(root, rel), 'utf8');
  }
  return out;
}

/** Writes the generated types and client of the schemas under `root` when they changed (its src/generated). */
function runCodegen(root: string): string[] {
  if (!existsSync(join(root, 'src/generated'))) return [];
  const written: string[] = [];
  for (const [file, text] of Object.entries(generate(root))) {
    const path = join(root, file);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
    writeFileSync(path, text);
    written.push(file);
  }
  return written;
}

export default async function studioRoutes(app: FastifyInstance, opts: { root: string }) {
  const { db } = app.deps;
  const { root } = opts;
  const migrationsDir = join(root, 'schemas/migrations');

  /** The draft, checked and dry-run against the database. */
  async function preview(body: DraftBody) {
    const changes = Array.isArray(body.changes) ? body.changes : [];
    let draft;
    try {
      draft = draftOf(root, changes);
    } catch (err) {
      if (err instanceof StudioError) throw badInput(err.message);
      throw err;
    }
    const extra = body.migration ? { id: body.migration.file.split('/').pop()!, sql: body.migration.sql.join('\n') } : undefined;
    const database = draft.issues.length ? undefined : await previewDatabase(db, Object.values(draft.registry.entities), migrationsDir, extra);
    return { draft, database };
  }

  app.get('/api/studio/files', { config, schema: { tags, summary: '全部 schema 文件、元 schema 与引用关系' } }, async () => {
    const { files } = loadSchemaFiles(root);
    return ok({ files: schemaTexts(root), usage: schemaUsage(files), icons: ICON_NAMES });
  });

  app.post<{ Body: DraftBody }>('/api/studio/preview', { config, schema: { tags, summary: '预览改动：文件差异、校验问题、数据库变更' } }, async (req) => {
    const { draft, database } = await preview(req.body ?? {});
    return ok({ files: draft.files, issues: draft.issues, database });
  });

  app.post<{ Body: DraftBody }>('/api/studio/save', { config, schema: { tags, summary: '保存改动（写入 schemas/，运行 codegen）' } }, async (req) => {
    const body = req.body ?? {};
    const { draft, database } = await preview(body);
    if (draft.issues.length) throw badInput(`schema 有 ${draft.issues.length} 处问题，未保存`, draft.issues.map((i) => ({ field: `${i.file} ${i.path}`, message: i.reason })));
    if (database?.error) throw badInput(`数据库变更会失败，未保存：${database.error}`);
    if (database?.problems.length) throw badInput('该改动会删除或改动数据库中已有的列：请先采用（或修改）建议的迁移文件，再保存');
    const written = writeDraft(root, draft, body.migration);
    written.push(...runCodegen(root));
    return ok({ written, files: draft.files, database });
  });

  app.post<{ Body: { entity?: string; label?: string; icon?: string } }>(
    '/api/studio/pages',
    { config, schema: { tags, summary: '为实体生成菜单页面（列表、表单、详情与路由）' } },
    async (req) => {
      const { entity: name = '', icon } = req.body ?? {};
      const { files } = loadSchemaFiles(root);
      const entity = files[`schemas/entities/${name}.json`] as { name: string; label: string; api?: string; fields: Record<string, unknown>; storage?: boolean } | undefined;
      if (!entity || entity.storage === false) throw badInput(`没有可列出的实体 ${name}`);
      if (icon && !(ICON_NAMES as readonly string[]).includes(icon)) throw badInput(`图标 ${icon} 不可用`);
      // Paths of its own: under /pages/ when /<entity>/… is a route or an old path's redirect already.
      const routesFile = files['schemas/routes.json'] as { routes: unknown[]; redirects?: Record<string, string> };
      const taken = new Set([...JSON.stringify(routesFile.routes).matchAll(/"path":"([^"]+)"/g)].map((m) => m[1]).concat(Object.keys(routesFile.redirects ?? {})));
      const base = [`/${name}`, `/pages/${name}`].find((b) => !taken.has(`${b}/list`) && !taken.has(`${b}/detail/:id`)) ?? `/pages/${name}-${Date.now()}`;
      const pages = pagesFor(entity, { label: req.body?.label?.trim() || entity.label, icon, base });
      // A page file that exists already is used as it is (a new form only comes with the new list that opens it).
      const tableFile = Object.keys(pages.files).find((f) => f.startsWith('schemas/tables/'))!;
      const changes: StudioChange[] = Object.entries(pages.files)
        .filter(([file]) => !(file in files) && (!file.startsWith('schemas/forms/') || !(tableFile in files)))
        .map(([file, create]) => ({ file, create }));
      changes.push({ file: 'schemas/routes.json', edits: pages.routes.map((r) => ({ op: 'insert' as const, path: ['routes'], value: r, index: routesFile.routes.length })) });
      return ok({ changes });
    },
  );
}
