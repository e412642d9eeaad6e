/**
 * DDL derived from entity schemas: column names and SQL types, CREATE TABLE, and the one function
 * that derives every index of an entity (business scope, unique, search, sort).
 */
import { itemFields } from '../../shared/entity/rules.ts';
import type { EntitySchema, FieldSchema } from '../../shared/entity/types.ts';

export const snake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export const columnOf = (key: string, f: FieldSchema): string => f.column ?? snake(key);

export const tableOf = (e: EntitySchema): string => e.table ?? snake(e.name).replace(/-/g, '_');

/** SQL type of a field (as written in DDL). */
export function sqlType(f: FieldSchema): string {
  switch (f.type) {
    case 'integer':
    case 'ref':
      return 'INTEGER';
    case 'money':
      return 'BIGINT';
    case 'boolean':
      return 'BOOLEAN';
    case 'date':
      return 'DATE';
    case 'datetime':
      return 'TIMESTAMPTZ';
    case 'array':
      return itemFields(f) ? 'JSONB' : 'TEXT[]';
    default:
      return 'TEXT';
  }
}

/** information_schema.columns data_type for a SQL type written by sqlType. */
export function infoSchemaType(sql: string): string {
  return (
    {
      INTEGER: 'integer',
      BIGINT: 'bigint',
      BOOLEAN: 'boolean',
      DATE: 'date',
      TIMESTAMPTZ: 'timestamp with time zone',
      'TEXT[]': 'ARRAY',
      JSONB: 'jsonb',
      TEXT: 'text',
    } as Record<string, string>
  )[sql];
}

const quote = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** SQL DEFAULT clause for a field default ("now", literals); serial numbers are generated on insert. */
export function sqlDefault(f: FieldSchema): string | undefined {
  const d = f.default;
  if (d === undefined || d === null) return f.type === 'array' && !itemFields(f) ? "'{}'" : undefined;
  if (d === 'now') return f.type === 'date' ? 'CURRENT_DATE' : 'now()';
  if (typeof d === 'string' && d.startsWith('serial:')) return undefined;
  if (f.type === 'money' && typeof d === 'number') return String(Math.round(d * 100));
  if (typeof d === 'number' || typeof d === 'boolean') return String(d);
  if (typeof d === 'string') return quote(d);
  if (Array.isArray(d)) return itemFields(f) ? `${quote(JSON.stringify(d))}::jsonb` : `${quote(`{${d.join(',')}}`)}`;
  return undefined;
}

/** Column definition. `forAdd` = ALTER TABLE ADD COLUMN on a live table: NOT NULL only with a default. */
export function columnDef(
  key: string,
  f: FieldSchema,
  entities: Record<string, EntitySchema>,
  forAdd = false,
): string {
  const parts = [columnOf(key, f), sqlType(f)];
  const def = sqlDefault(f);
  const notNull = (f.required || def !== undefined) && !(forAdd && def === undefined);
  if (notNull) parts.push('NOT NULL');
  if (def !== undefined) parts.push(`DEFAULT ${def}`);
  if (f.type === 'enum' && f.options?.length) {
    parts.push(`CHECK (${columnOf(key, f)} IN (${f.options.map((o) => quote(o.value)).join(', ')}))`);
  }
  if (f.type === 'ref' && f.entity && entities[f.entity]) {
    parts.push(`REFERENCES ${tableOf(entities[f.entity])}(id) ON DELETE ${notNull ? 'CASCADE' : 'SET NULL'}`);
  }
  return parts.join(' ');
}

const isSerial = (f: FieldSchema): boolean => typeof f.default === 'string' && f.default.startsWith('serial:');

export interface IndexDef {
  name: string;
  sql: string;
}

/**
 * Every index of an entity, derived in one place: (business_id, id) for scoping; unique fields
 * UNIQUE (business_id, col); sort fields (business_id, col, id); search-only fields
 * (business_id, col). Contains-search gets a btree here; a trigram (pg_trgm GIN) index is a
 * follow-up and belongs in this function too.
 */
export function indexesFor(e: EntitySchema): IndexDef[] {
  const t = tableOf(e);
  const out: IndexDef[] = [{ name: `${t}_business_idx`, sql: `CREATE INDEX IF NOT EXISTS ${t}_business_idx ON ${t} (business_id, id)` }];
  for (const [key, f] of Object.entries(e.fields)) {
    if (f.type === 'array') continue;
    const c = columnOf(key, f);
    // Server-generated numbers (default "serial:…") identify a row across businesses (payment callbacks,
    // invoice links), so they are unique in the whole table; other unique fields per business.
    if (f.unique && isSerial(f)) out.push({ name: `${t}_${c}_key`, sql: `CREATE UNIQUE INDEX IF NOT EXISTS ${t}_${c}_key ON ${t} (${c})` });
    else if (f.unique) out.push({ name: `${t}_${c}_uniq`, sql: `CREATE UNIQUE INDEX IF NOT EXISTS ${t}_${c}_uniq ON ${t} (business_id, ${c})` });
    if (f.sort) out.push({ name: `${t}_${c}_sort_idx`, sql: `CREATE INDEX IF NOT EXISTS ${t}_${c}_sort_idx ON ${t} (business_id, ${c}, id)` });
    else if (f.search && !f.unique) out.push({ name: `${t}_${c}_idx`, sql: `CREATE INDEX IF NOT EXISTS ${t}_${c}_idx ON ${t} (business_id, ${c})` });
  }
  return out;
}

/** CREATE TABLE for a stored entity (id SERIAL, business_id scoped to businesses). */
export function createTableSql(e: EntitySchema, entities: Record<string, EntitySchema>): string {
  const cols = [
    'id SERIAL PRIMARY KEY',
    'business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE',
    ...Object.entries(e.fields).map(([k, f]) => columnDef(k, f, entities)),
  ];
  return `CREATE TABLE IF NOT EXISTS ${tableOf(e)} (\n  ${cols.join(',\n  ')}\n)`;
}

/** Stored entities ordered so that referenced tables come first. */
export function creationOrder(entities: EntitySchema[]): EntitySchema[] {
  const byName = new Map(entities.map((e) => [e.name, e]));
  const out: EntitySchema[] = [];
  const seen = new Set<string>();
  const visit = (e: EntitySchema) => {
    if (seen.has(e.name)) return;
    seen.add(e.name);
    for (const f of Object.values(e.fields)) {
      const dep = f.type === 'ref' && f.entity ? byName.get(f.entity) : undefined;
      if (dep) visit(dep);
    }
    out.push(e);
  };
  [...entities].sort((a, b) => a.name.localeCompare(b.name)).forEach(visit);
  return out;
}
