/**
 * The studio's draft in the browser: the edits of each schema file (sent to the gateway, which applies
 * them to the file's text the way a person would, src/server/studio/json-text.ts), and the edits one
 * field change makes: only the keys that changed, a new key before the next key it already has (the
 * meta's order), a rename in place.
 */
import type { JsonPath, SchemaEdit, StudioChange } from '../../shared/studio';

type Def = Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The edits that turn field `from` (undefined: a new field, added before `before` or at the end) into
 * `to` in the entity file's `fields`.
 */
export function fieldEdits(from: { name: string; def: Def | string } | undefined, to: { name: string; def: Def }, before?: string): SchemaEdit[] {
  if (!from || typeof from.def === 'string') {
    const set: SchemaEdit = { op: 'set', path: ['fields', to.name], value: to.def, ...(before ? { before } : {}) };
    return from ? [{ op: 'remove', path: ['fields', from.name] }, set] : [set];
  }
  const edits: SchemaEdit[] = [];
  if (from.name !== to.name) edits.push({ op: 'rename', path: ['fields', from.name], to: to.name });
  const at = (k: string): JsonPath => ['fields', to.name, k];
  const old = from.def;
  for (const k of Object.keys(old)) if (!(k in to.def)) edits.push({ op: 'remove', path: at(k) });
  const keys = Object.keys(to.def);
  keys.forEach((k, i) => {
    if (k in old && same(old[k], to.def[k])) return;
    const next = keys.slice(i + 1).find((n) => n in old);
    edits.push({ op: 'set', path: at(k), value: to.def[k], ...(!(k in old) && next ? { before: next } : {}) });
  });
  return edits;
}

/** The edit that moves field `name` one place up or down among `order` (the fields in file order). */
export function moveEdit(order: string[], name: string, by: -1 | 1): SchemaEdit | undefined {
  const i = order.indexOf(name);
  const j = i + by;
  if (i < 0 || j < 0 || j >= order.length) return undefined;
  // Before the one above; or before the one after the one below (the end when there is none).
  return { op: 'move', path: ['fields', name], before: by < 0 ? order[j] : order[j + 1] };
}

/** `changes` with `edits` added to `file`'s entry (a file's edits apply in order). */
export function addEdits(changes: StudioChange[], file: string, edits: SchemaEdit[]): StudioChange[] {
  const i = changes.findIndex((c) => c.file === file && !c.create);
  if (i < 0) return [...changes, { file, edits }];
  return changes.map((c, n) => (n === i ? { ...c, edits: [...(c.edits ?? []), ...edits] } : c));
}
