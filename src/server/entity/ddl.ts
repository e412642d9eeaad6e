/**
 * DDL derived from entity schemas: column names and SQL types, CREATE TABLE, and the one function
 * that derives every index of an entity (business scope, unique, search, sort).
 */
import { itemFields } from '../../shared/entity/rules.ts';
import { storedFields, type EntitySchema, type FieldSchema } from '../../shared/entity/types.ts';
import { yuanToCents } from '../../shared/money.ts';

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
  if (f.type === 'money' && typeof d === 'number') return String(yuanToCents(d));
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

/** True when the column may hold NULL (neither required nor defaulted). */
export const isNullable = (f: FieldSchema): boolean => !f.required && sqlDefault(f) === undefined;

/**
 * The ORDER BY key of a sort column, the same text its index is built with, so a page is read straight
 * off the index in either direction. NOT NULL columns: `col DIR, id DIR`. Nullable columns treat an
 * empty value as the smallest: the index is `col DESC NULLS LAST, id DESC`, scanned forwards for
 * descending and backwards for ascending (`col ASC NULLS FIRST, id ASC`).
 */
export function sortKey(col: string, f: FieldSchema | undefined, order: 'ascend' | 'descend'): string {
  const dir = order === 'ascend' ? 'ASC' : 'DESC';
  if (col === 'id') return `id ${dir}`;
  if (!f || !isNullable(f)) return `${col} ${dir}, id ${dir}`;
  return order === 'ascend' ? `${col} ASC NULLS FIRST, id ASC` : `${col} DESC NULLS LAST, id DESC`;
}

/** The last row a keyset page read: its sort column as text (`col::text`, exact for every type; null when empty) and its id. */
export interface SeekKey {
  value: string | null;
  id: number;
}

/**
 * WHERE clause for the rows after `last` in sortKey's order (keyset paging: each page starts where the
 * previous one ended, however deep, and rows written meanwhile shift nothing). `p` adds a parameter.
 */
export function seekAfter(col: string, f: FieldSchema | undefined, order: 'ascend' | 'descend', last: SeekKey, p: (v: unknown) => string): string {
  const cmp = order === 'ascend' ? '>' : '<';
  const id = `${p(last.id)}::int`;
  if (col === 'id' || !f) return `id ${cmp} ${id}`;
  const row = () => `(${col}, id) ${cmp} (${p(last.value)}::${sqlType(f)}, ${id})`;
  if (!isNullable(f)) return row();
  // Empty values come first ascending and last descending (sortKey).
  if (last.value === null) return order === 'ascend' ? `((${col} IS NULL AND id > ${id}) OR ${col} IS NOT NULL)` : `(${col} IS NULL AND id < ${id})`;
  return order === 'ascend' ? row() : `(${row()} OR ${col} IS NULL)`;
}

/**
 * The characters of a text column (or parameter), lower-cased, as an array: the key of the index that
 * serves contains-search terms of one or two characters (姓名 张伟, 产品 外卖), where `array @> array`
 * leaves only the rows holding every character of the term for LIKE to check. Built-in immutable
 * functions on both databases; about 1 µs a row on insert.
 */
export function charsOf(sqlText: string): string {
  return `string_to_array(lower(${sqlText}), NULL)`;
}

export interface IndexDef {
  name: string;
  sql: string;
  /** Storage parameters (`key=value`, as pg_class.reloptions spells them) the index is created with and kept at. */
  options?: string[];
}

/**
 * A GIN index's pending list (fastupdate) holds new rows' keys until it is merged into the index, and
 * every search reads the whole list first. PostgreSQL merges at 4 MB by default, or when autovacuum
 * passes; PGlite has no autovacuum, so a list of up to 512 pages stayed in front of every contains-search
 * (466 pages after the bench's 100k persons: 25–30 ms a search on 1M, 0.5–6 ms once merged). 256 kB
 * bounds that to 32 pages while rows still go in in batches: 20,000 names into the two GIN indexes of a
 * name took 96–150 ms on PostgreSQL, as at 4 MB (137 ms), against 425–470 ms with fastupdate off.
 */
export const GIN_OPTIONS = ['gin_pending_list_limit=256'];

export interface IndexOptions {
  /**
   * Schema pg_trgm is installed in (its operator class is named with it, since the connection's
   * search_path may not include it): contains-search fields get a trigram GIN index; else a btree.
   */
  trigram?: string;
}

/**
 * Every index of an entity, derived in one place from the schema:
 * - `(business_id, id)` for scoping and the id order;
 * - unique fields: serial numbers `UNIQUE (col)` (they identify a row across businesses), others
 *   `UNIQUE (business_id, col)`; both also serve the exact search on that field;
 * - sort fields (the default sort is one of them, or id): `(business_id, col, id)` in the direction
 *   sortKey() orders by, so page 1 and a deferred-join deep page walk the index;
 * - contains-search fields: a trigram GIN index `gin (col gin_trgm_ops)` for terms of 3+ characters
 *   (ILIKE '%…%'), and a GIN index of the value's characters, `gin (string_to_array(lower(col), NULL))`,
 *   for shorter ones (charsOf: a trigram index has no trigram of a 2-character term and reads every row);
 * - other exact/range search fields: `(business_id, col)`;
 * - the event and date columns a searchable cover-period status is derived from: `(business_id, col)`,
 *   the event's (when it may be empty) only over the rows that have one (`_set_idx`).
 */
export function indexesFor(e: EntitySchema, opts: IndexOptions = {}): IndexDef[] {
  const t = tableOf(e);
  const business = isBusinessScoped(e);
  // A platform entity's rows belong to no business: its keys start at the field itself.
  const scoped = (cols: string) => (business ? `(business_id, ${cols})` : `(${cols})`);
  const out: IndexDef[] = business ? [{ name: `${t}_business_idx`, sql: `CREATE INDEX IF NOT EXISTS ${t}_business_idx ON ${t} (business_id, id)` }] : [];
  const add = (name: string, def: string) => {
    const options = def.startsWith('USING gin') ? GIN_OPTIONS : undefined;
    const sql = `CREATE ${def.startsWith('UNIQUE') ? 'UNIQUE INDEX' : 'INDEX'} IF NOT EXISTS ${name} ON ${t} ${def.replace(/^UNIQUE /, '')}`;
    out.push(options ? { name, sql: `${sql} WITH (${options.join(', ')})`, options } : { name, sql });
  };
  for (const [key, f] of storedFields(e)) {
    if (f.type === 'array') continue;
    const c = columnOf(key, f);
    if (f.unique && isSerial(f)) add(`${t}_${c}_key`, `UNIQUE (${c})`);
    else if (f.unique) add(`${t}_${c}_uniq`, `UNIQUE ${scoped(c)}`);
    if (f.sort && isNullable(f)) add(`${t}_${c}_desc_idx`, scoped(`${c} DESC NULLS LAST, id DESC`));
    else if (f.sort) add(`${t}_${c}_sort_idx`, scoped(`${c}, id`));
    if (f.search === 'contains' && !f.mask) add(`${t}_${c}_chars`, `USING gin (${charsOf(c)})`);
    if (f.search === 'contains' && !f.mask && opts.trigram) add(`${t}_${c}_trgm`, `USING gin (${c} "${opts.trigram.replace(/"/g, '""')}".gin_trgm_ops)`);
    else if (f.search && !f.sort && !f.unique) add(`${t}_${c}_idx`, scoped(c));
  }
  // A searchable cover-period status (待生效 / 在保 / 已过期, no column): its filter is an OR of the event
  // column and a date range, so both get an index and a rare status (待生效: cover starting after today) is
  // read from the indexes (BitmapOr) instead of by walking every row in id order (35 ms → 0.1 ms at 100k).
  // The event column is empty on most rows (no event: the dates decide) and the status reads it only as
  // `event = value`: its index holds the rows with an event, so inserting an ordinary row skips it.
  for (const f of Object.values(e.fields)) {
    if (f.derived?.rule !== 'coverPeriod' || !f.search) continue;
    for (const key of [f.derived.event, f.derived.start, f.derived.end]) {
      const g = key ? e.fields[key] : undefined;
      if (!key || !g || g.sort || g.unique || g.search) continue;
      const c = columnOf(key, g);
      const partial = key === f.derived.event && isNullable(g);
      const name = `${t}_${c}_${partial ? 'set_idx' : 'idx'}`;
      if (!out.some((i) => i.name === name)) add(name, partial ? `${scoped(c)} WHERE ${c} IS NOT NULL` : scoped(c));
    }
  }
  return out;
}

/** Whether the entity's rows belong to a business (the default) rather than to the platform (scope "platform"). */
export const isBusinessScoped = (e: EntitySchema): boolean => e.scope !== 'platform';

/** CREATE TABLE for a stored entity (id SERIAL; business_id scoped to businesses unless the entity is the platform's). */
export function createTableSql(e: EntitySchema, entities: Record<string, EntitySchema>): string {
  const cols = [
    'id SERIAL PRIMARY KEY',
    ...(isBusinessScoped(e) ? ['business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE'] : []),
    ...storedFields(e).map(([k, f]) => columnDef(k, f, entities)),
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
