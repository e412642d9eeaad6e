/**
 * What entity.schema.json cannot say about an entity file: its name is its file's, its default sort
 * names a sortable field, day counts need a datetime that is never empty, and references to other
 * entities ("insured-person.name", `ref`, array items of an entity, `fieldsFrom`) resolve. A reference into an
 * entity file that has problems of its own is not reported again here.
 */
import type { EntityRegistry } from '../shared/entity/registry';
import { isObj } from './issues';

type Add = (path: string, reason: string) => void;

export interface EntityContext {
  reg: EntityRegistry;
  /** entity names whose file is unreadable or invalid: references to them are not checked */
  broken: ReadonlySet<string>;
}

const entityOfRef = (ref: string) => ref.slice(0, Math.max(0, ref.lastIndexOf('.')));

function checkFields(fields: unknown, at: string, self: string, ctx: EntityContext, add: Add): void {
  if (!isObj(fields)) return;
  for (const [k, f] of Object.entries(fields)) {
    const p = `${at}.${k}`;
    if (typeof f === 'string') {
      if (!ctx.broken.has(entityOfRef(f)) && !ctx.reg.resolveRef(f)) add(p, `unknown field reference ${JSON.stringify(f)} (expected "<entity>.<field>")`);
      continue;
    }
    if (!isObj(f)) continue;
    if (f.type === 'ref' && typeof f.entity === 'string' && !ctx.broken.has(f.entity) && !ctx.reg.has(f.entity))
      add(`${p}.entity`, `type "ref" needs an existing entity, got ${JSON.stringify(f.entity)}`);
    if (f.type !== 'array' || !isObj(f.items)) continue;
    const items = f.items;
    if (typeof items.entity === 'string') {
      if (!ctx.broken.has(items.entity) && (!ctx.reg.has(items.entity) || items.entity === self))
        add(`${p}.items.entity`, `unknown entity ${JSON.stringify(items.entity)}`);
    } else checkFields(items.fields, `${p}.items.fields`, self, ctx, add);
  }
}

/** Checks one entity file; `name` is the file name without .json. */
export function checkEntity(data: unknown, name: string, ctx: EntityContext, add: Add): void {
  if (!isObj(data)) return;
  if (typeof data.name === 'string' && data.name !== name) add('$.name', `name ${JSON.stringify(data.name)} must equal the file name "${name}"`);
  checkFields(data.fields, '$.fields', name, ctx, add);
  const from = isObj(data.fieldsFrom) ? data.fieldsFrom.entity : undefined;
  if (typeof from === 'string' && !ctx.broken.has(from) && (!ctx.reg.has(from) || from === name))
    add('$.fieldsFrom.entity', `unknown entity ${JSON.stringify(from)}: expected schemas/entities/<name>.json`);
  // A platform entity's rows belong to no business: the business-scoped REST collection cannot serve them.
  if (data.scope === 'platform' && data.api !== undefined) add('$.api', 'a platform entity has no REST collection (its rows are shared by every business)');
  if (data.storage === false || !isObj(data.defaultSort)) return;
  const fields = isObj(data.fields) ? data.fields : {};
  const ds = data.defaultSort.field;
  const dsField = typeof ds === 'string' && isObj(fields[ds]) ? (fields[ds] as Record<string, unknown>) : undefined;
  if (typeof ds === 'string' && ds !== 'id' && dsField?.sort !== true)
    add('$.defaultSort.field', `defaultSort field ${JSON.stringify(ds)} must be "id" or a field with "sort": true`);
  const notNullDatetime = dsField?.type === 'datetime' && (dsField.required === true || dsField.default != null);
  if (data.defaultSort.dayCounts === true && !notNullDatetime)
    add('$.defaultSort.dayCounts', 'dayCounts needs a defaultSort field of type "datetime" that is required or has a default');
}
