/// <reference types="vite/client" />
/**
 * Browser-side schema registry: bundles every schemas/**\/*.json via Vite and exposes typed accessors.
 * The schemas are checked once per build: `vite build` fails with a readable list when anything is wrong
 * (the schemaCheck plugin in vite.config.ts), so a production bundle holds only valid schemas and does
 * not carry the validator. Under the dev server and in tests they are validated here, at start-up.
 */
import type { DetailSchema, DetailSchemaFile, FormSchema, FormSchemaFile, RoutesFile, TableSchema, TableSchemaFile } from './types';
import { formatIssues, ROUTES_FILE, validateSchemas } from './validate';
import { buildEntityRegistry } from '../shared/entity/registry';
import { resolveDetail, resolveForm, resolveTable } from './resolve';

export { flattenRoutes, matchRoute, findRoute, fillPath, allRoutes, isLeafRoute } from './routes';

// schemas/meta holds the JSON Schemas for editors: the console does not read them.
const modules = import.meta.glob(['/schemas/**/*.json', '!/schemas/meta/**'], { eager: true, import: 'default' }) as Record<string, unknown>;

/** Parsed schema files keyed like 'schemas/routes.json'. */
export const schemaFiles: Record<string, unknown> = Object.fromEntries(
  Object.entries(modules).map(([k, v]) => [k.replace(/^\//, ''), v]),
);

if (!import.meta.env.PROD) {
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
