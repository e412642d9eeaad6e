/// <reference types="vite/client" />
/**
 * Browser-side schema registry: bundles every schemas/**\/*.json via Vite, validates them at
 * start-up (throws with a readable list if anything is wrong) and exposes typed accessors.
 */
import type { DetailSchema, FormSchema, RoutesFile, TableSchema } from './types';
import { formatIssues, ROUTES_FILE, validateSchemas } from './validator';

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

function getter<T>(dir: string, kind: string) {
  return (id: string): T => {
    const v = schemaFiles[`schemas/${dir}/${id}.json`];
    if (v === undefined) throw new Error(`Unknown ${kind} schema "${id}"`);
    return v as T;
  };
}

export const getTable = getter<TableSchema>('tables', 'table');
export const getForm = getter<FormSchema>('forms', 'form');
export const getDetail = getter<DetailSchema>('details', 'detail');
