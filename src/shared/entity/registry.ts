/**
 * Entity registry: takes parsed entity files (schemas/entities/*.json), resolves references
 * (a field given as "insured-person.name", array items { "entity": "insured-person" }) and
 * answers lookups. Validation with file + JSON path lives in src/schema/validate.ts.
 */
import { inputFields } from './rules.ts';
import type { EntitySchema, FieldSchema } from './types.ts';

export const ENTITY_DIR = 'schemas/entities/';

export interface EntityRegistry {
  readonly entities: Record<string, EntitySchema>;
  get(name: string): EntitySchema;
  has(name: string): boolean;
  /** all fields of an entity (resolved) */
  fieldsOf(name: string): Record<string, FieldSchema>;
  /** entities stored in the database, in name order */
  stored(): EntitySchema[];
  /** the field an "entity.field" reference points at */
  resolveRef(ref: string): FieldSchema | undefined;
}

type RawFields = Record<string, FieldSchema | string>;
type RawEntity = Omit<EntitySchema, 'fields'> & { fields: RawFields };

/** Entity name from a repo-relative file path, or undefined for other files. */
export function entityNameOf(file: string): string | undefined {
  const m = /^schemas\/entities\/([^/]+)\.json$/.exec(file);
  return m ? m[1] : undefined;
}

/** Builds the registry from parsed files keyed by repo-relative path (other files are ignored). */
export function buildEntityRegistry(files: Record<string, unknown>): EntityRegistry {
  const raw: Record<string, RawEntity> = {};
  for (const [file, data] of Object.entries(files)) {
    const name = entityNameOf(file);
    if (name && data && typeof data === 'object') raw[name] = data as RawEntity;
  }
  const resolved: Record<string, EntitySchema> = {};
  const resolving = new Set<string>();

  const refField = (ref: string): FieldSchema | undefined => {
    const dot = ref.lastIndexOf('.');
    if (dot < 0) return undefined;
    const e = resolve(ref.slice(0, dot));
    return e?.fields[ref.slice(dot + 1)];
  };

  const resolveField = (f: FieldSchema | string): FieldSchema | undefined => {
    if (typeof f === 'string') {
      const target = refField(f);
      return target ? { ...target, readOnly: undefined, unique: undefined } : undefined;
    }
    if (f.type === 'array' && f.items && typeof f.items === 'object') {
      if ('entity' in f.items) {
        const e = resolve(f.items.entity);
        if (!e) return f;
        const omit = new Set(f.items.omit ?? []);
        const fields = Object.fromEntries(Object.entries(inputFields(e)).filter(([k]) => !omit.has(k)));
        return { ...f, items: { fields } };
      }
      if ('fields' in f.items) {
        const fields: Record<string, FieldSchema> = {};
        for (const [k, sub] of Object.entries(f.items.fields as RawFields)) {
          const r = resolveField(sub);
          if (r) fields[k] = r;
        }
        return { ...f, items: { fields } };
      }
    }
    return f;
  };

  function resolve(name: string): EntitySchema | undefined {
    if (resolved[name]) return resolved[name];
    const r = raw[name];
    if (!r || resolving.has(name) || !r.fields || typeof r.fields !== 'object') return undefined;
    resolving.add(name);
    const fields: Record<string, FieldSchema> = {};
    const from = r.fieldsFrom && typeof r.fieldsFrom === 'object' ? resolve(String(r.fieldsFrom.entity)) : undefined;
    if (from) {
      const omit = new Set(r.fieldsFrom?.omit ?? []);
      for (const [k, f] of Object.entries(inputFields(from))) if (!omit.has(k)) fields[k] = { ...f, readOnly: undefined, unique: undefined };
    }
    for (const [k, f] of Object.entries(r.fields)) {
      const rf = resolveField(f);
      if (rf) fields[k] = rf;
    }
    resolving.delete(name);
    const { $schema: _ignored, ...rest } = r;
    void _ignored;
    resolved[name] = { ...rest, fields };
    return resolved[name];
  }

  for (const name of Object.keys(raw).sort()) resolve(name);

  return {
    entities: resolved,
    get(name) {
      const e = resolved[name];
      if (!e) throw new Error(`Unknown entity "${name}"`);
      return e;
    },
    has: (name) => Object.hasOwn(resolved, name),
    fieldsOf(name) {
      return this.get(name).fields;
    },
    stored: () => Object.values(resolved).filter((e) => e.storage !== false),
    resolveRef: refField,
  };
}
