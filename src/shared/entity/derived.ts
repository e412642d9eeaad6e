/**
 * The checks of an entity's derived fields and counts that a JSON Schema cannot state (they relate
 * one field to others): the shape of `derived` and `counts` is in schemas/meta/entity.schema.json.
 */

type Json = unknown;
const isObj = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface SchemaProblem {
  /** JSON path from the entity file's root, e.g. $.fields.status.derived.start */
  path: string;
  message: string;
}

/** Problems of `derived` fields (coverPeriod, insurableAge) and of `counts` in an entity file's data. */
export function derivedProblems(data: Record<string, Json>): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const fields = isObj(data.fields) ? data.fields : {};
  const field = (k: unknown) => (typeof k === 'string' && isObj(fields[k]) ? (fields[k] as Record<string, Json>) : undefined);
  const options = (f: Record<string, Json> | undefined) =>
    Array.isArray(f?.options) ? f.options.map((o) => (isObj(o) ? o.value : undefined)).filter((v): v is string => typeof v === 'string') : [];
  for (const [key, raw] of Object.entries(fields)) {
    const f = isObj(raw) ? raw : undefined;
    const d = f?.derived;
    if (!isObj(d)) continue;
    const at = `$.fields.${key}.derived`;
    if (f!.type !== 'enum') out.push({ path: `$.fields.${key}.type`, message: 'a derived status is an "enum" field' });
    if (f!.readOnly !== true) out.push({ path: `$.fields.${key}.readOnly`, message: 'a derived field is computed, so it is "readOnly": true' });
    const own = options(f);
    const valuesOk = () => {
      if (isObj(d.values)) for (const [k, v] of Object.entries(d.values)) if (!own.includes(v as string)) out.push({ path: `${at}.values.${k}`, message: `${JSON.stringify(v)} is not an option of this field` });
    };
    if (d.rule === 'insurableAge') {
      if (field(d.idCard)?.type !== 'idCard') out.push({ path: `${at}.idCard`, message: 'idCard must name an "idCard" field of this entity' });
      valuesOk();
      continue;
    }
    for (const k of ['start', 'end'] as const) {
      const ref = field(d[k]);
      if (!ref || ref.type !== 'date' || ref.required !== true || ref.derived) out.push({ path: `${at}.${k}`, message: `${k} must name a required "date" field of this entity` });
    }
    valuesOk();
    if (d.event !== undefined) {
      const ev = field(d.event);
      if (!ev || ev.type !== 'enum' || ev.required === true || ev.default !== undefined || ev.derived) {
        out.push({ path: `${at}.event`, message: 'event must name an optional "enum" field of this entity without a default' });
      } else {
        for (const v of options(ev)) if (!own.includes(v)) out.push({ path: `${at}.event`, message: `event value ${JSON.stringify(v)} is not an option of this field` });
      }
    }
  }
  const counts = Array.isArray(data.counts) ? data.counts : [];
  counts.forEach((c, i) => {
    if (!isObj(c)) return;
    for (const [list, types] of [['by', ['enum', 'string', 'boolean', 'date', 'datetime', 'integer', 'ref']], ['sum', ['money', 'integer']]] as const) {
      const keys = Array.isArray(c[list]) ? c[list] : [];
      keys.forEach((k, j) => {
        const f = field(k);
        if (!f || (f.derived && (f.derived as Record<string, Json>).rule !== 'insurableAge') || !types.includes(f.type as never)) out.push({ path: `$.counts[${i}].${list}[${j}]`, message: `${JSON.stringify(k)} must name a stored field of type ${types.join('/')}` });
      });
    }
    const dated = (Array.isArray(c.by) ? c.by : []).some((k) => ['date', 'datetime'].includes(field(k)?.type as string));
    if (c.per === 'month' && !dated) out.push({ path: `$.counts[${i}].per`, message: '"month" counts a date or datetime field of "by" per month: name one in "by"' });
  });
  return out;
}
