/**
 * Which lists can be exported and with which columns: every stored entity with a list API, its
 * columns titled and typed exactly as the console's table shows them (src/schema/resolve.ts), in the
 * table's order, from the schemas the gateway runs on.
 */
import { resolveTable, valueTypeOf } from '../../schema/resolve.ts';
import type { EnumOption, TableSchemaFile, ValueType } from '../../schema/types.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import type { LoadedEntities } from '../entity/load.ts';

export interface ExportColumn {
  key: string;
  title: string;
  valueType: ValueType;
  options?: EnumOption[];
}

export interface ExportList {
  /** e.g. 'claims' (GET /api/claims/export) */
  api: string;
  entity: EntitySchema;
  /** the list's title (its table schema's), used for the file name */
  title: string;
  /** every exportable column: the table's columns first (in its order), then other entity fields */
  columns: ExportColumn[];
  /** the columns the table shows by default (used when the request names none) */
  defaultColumns: string[];
}

/** Input-only field types: never part of a list. */
const NOT_LISTED = new Set(['password', 'smsCode']);

export function buildExportLists(files: Record<string, unknown>, entities: Record<string, EntitySchema>, reg: Parameters<typeof resolveTable>[1]): Map<string, ExportList> {
  const tables = Object.entries(files)
    .filter(([f]) => /^schemas\/tables\/[^/]+\.json$/.test(f))
    .map(([, data]) => data as TableSchemaFile)
    .filter((t) => t.entity);
  const out = new Map<string, ExportList>();
  for (const e of Object.values(entities)) {
    if (e.storage === false || !e.api || e.operations?.list === false) continue;
    const api = `/api/${e.api}`;
    const file = tables.find((t) => resolveTable(t, reg).api === api);
    const table = file ? resolveTable(file, reg) : undefined;
    const columns: ExportColumn[] = [];
    const seen = new Set<string>();
    for (const c of table?.columns ?? []) {
      const f = e.fields[c.dataIndex];
      if (!f || NOT_LISTED.has(f.type) || seen.has(c.dataIndex)) continue;
      seen.add(c.dataIndex);
      columns.push({ key: c.dataIndex, title: c.title, valueType: c.valueType ?? valueTypeOf(f), ...(c.options ? { options: c.options } : {}) });
    }
    for (const [key, f] of Object.entries(e.fields)) {
      if (seen.has(key) || NOT_LISTED.has(f.type)) continue;
      columns.push({ key, title: f.label, valueType: valueTypeOf(f), ...(f.options ? { options: f.options } : {}) });
    }
    const defaultColumns = table
      ? table.columns.filter((c) => !c.hideInTable && seen.has(c.dataIndex)).map((c) => c.dataIndex)
      : columns.map((c) => c.key);
    out.set(e.api, { api: e.api, entity: e, title: table?.title ?? e.label, columns, defaultColumns });
  }
  return out;
}

/** The exportable lists of a gateway's schemas, keyed by API name ('claims', 'orders', …). */
export function exportLists({ files, registry }: LoadedEntities): Map<string, ExportList> {
  return buildExportLists(files, registry.entities, registry);
}
