/// <reference types="vite/client" />
/**
 * Browser-side schema registry: the schema files the console renders, with typed accessors.
 *
 * In production they come from the gateway that serves the console: it writes the schemas it runs on
 * (already validated at its start) into index.html as window.__APP_SCHEMAS__, so one build serves any
 * schema folder — a configurator's edit reaches the browser when the gateway restarts, with no rebuild,
 * and the bundle carries no schemas. Under the dev server and in tests they are bundled by Vite
 * (import.meta.glob, reloaded on save) and validated here, at start-up.
 */
import type { DetailSchema, DetailSchemaFile, FormSchema, FormSchemaFile, RoutesFile, TableSchema, TableSchemaFile } from './types';
import { formatIssues, validateSchemas } from './validate';
import { ROUTES_FILE } from './check-routes';
import { buildEntityRegistry } from '../shared/entity/registry';
import { resolveDetail, resolveForm, resolveTable } from './resolve';

export { flattenRoutes, matchRoute, findRoute, fillPath, allRoutes, isLeafRoute } from './routes';

declare global {
  interface Window {
    /** The gateway's schema files keyed like 'schemas/routes.json' (written into index.html when it serves the console). */
    __APP_SCHEMAS__?: Record<string, unknown>;
  }
}

// schemas/meta holds the JSON Schemas for editors: the console does not read them.
const modules: Record<string, unknown> = import.meta.env.PROD
  ? {}
  : (import.meta.glob(['/schemas/**/*.json', '!/schemas/meta/**'], { eager: true, import: 'default' }) as Record<string, unknown>);

const served = typeof window !== 'undefined' ? window.__APP_SCHEMAS__ : undefined;
if (import.meta.env.PROD && !served) throw new Error('控制台的页面配置（schemas）缺失：请通过网关访问控制台');

/** Parsed schema files keyed like 'schemas/routes.json'. */
export const schemaFiles: Record<string, unknown> = served ?? Object.fromEntries(Object.entries(modules).map(([k, v]) => [k.replace(/^\//, ''), v]));

if (!import.meta.env.PROD && !served) {
  const issues = validateSchemas(schemaFiles);
  if (issues.length > 0) {
    throw new Error(`Invalid console schemas (${issues.length} issue${issues.length > 1 ? 's' : ''}):\n${formatIssues(issues)}`);
  }
}

export const routesFile = schemaFiles[ROUTES_FILE] as RoutesFile;

/** Entities from schemas/entities, with references resolved. */
export const entities = buildEntityRegistry(schemaFiles);

/** Page schemas resolved against their entity (once per id). */
function getter<F, T>(dir: string, kind: string, resolve: (file: F) => T) {
  const cache = new Map<string, T>();
  return (id: string): T => {
    const hit = cache.get(id);
    if (hit) return hit;
    const v = schemaFiles[`schemas/${dir}/${id}.json`];
    if (v === undefined) throw new Error(`Unknown ${kind} schema "${id}"`);
    const resolved = resolve(v as F);
    cache.set(id, resolved);
    return resolved;
  };
}

export const getTable = getter<TableSchemaFile, TableSchema>('tables', 'table', (f) => resolveTable(f, entities));
export const getForm = getter<FormSchemaFile, FormSchema>('forms', 'form', (f) => resolveForm(f, entities));
export const getDetail = getter<DetailSchemaFile, DetailSchema>('details', 'detail', (f) => resolveDetail(f, entities));
