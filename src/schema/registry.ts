/// <reference types="vite/client" />
/**
 * Browser-side schema registry: bundles every schemas/**\/*.json via Vite, validates them at
 * start-up (throws with a readable list if anything is wrong) and exposes typed accessors.
 */
import type { DetailSchema, DetailSchemaFile, FormSchema, FormSchemaFile, RoutesFile, TableSchema, TableSchemaFile } from './types';
import { formatIssues, ROUTES_FILE, validateSchemas } from './validator';
import { buildEntityRegistry } from '../shared/entity/registry';
import { resolveDetail, resolveForm, resolveTable } from './resolve';

export { flattenRoutes, matchRoute, findRoute, fillPath, allRoutes, isLeafRoute } from './routes';

const modules = import.meta.glob('/schemas/**/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

/** Parsed schema files keyed like 'schemas/routes.json'. */
export const schemaFiles: Record<string, unknown> = Object.fromEntries(
  Object.entries(modules).map(([k, v]) => [k.replace(/^\//, ''), v]),
);

const issues = validateSchemas(schemaFiles);
if (issues.length > 0) {
  throw new Error(`Invalid console schemas (${issues.length} issue${issues.length > 1 ? 's' : ''}):\n${formatIssues(issues)}`);
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
