/**
 * The body validator of an entity input route whose array fields may hold thousands of rows (a roster's
 * 5,000 persons). Ajv checks such a body in one call, 25–50 ms on a busy gateway during which no other
 * user's request is answered. Past SLICE_ROWS rows the body is checked without the arrays' items (the
 * arrays' own keywords, such as x-unique-by, included), then the items in slices of SLICE_ROWS with a
 * yield to the event loop before each. The errors are Ajv's for the same body, each item's instancePath
 * prefixed with its array and row (`/rows/3/idCard`), so mapAjvErrors words them as for the whole
 * schema's validator, which smaller bodies take as before.
 *
 * Fastify awaits a validator that returns a promise and then reads the function's `errors` (as Ajv's
 * own validators leave them), so the function sets them before its promise settles.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../../shared/entity/json-schema.ts';
import { SLICE_ROWS, yieldToLoop } from '../util.ts';

type BodyValidator = ((data: unknown) => boolean | Promise<boolean>) & { errors?: ErrorObject[] | null };
type Schema = JsonSchema & { properties?: Record<string, Schema>; items?: unknown; type?: unknown };

export function slicedBodyValidator(ajv: Ajv, schema: Schema): BodyValidator {
  const whole = ajv.compile(schema);
  const props = schema.properties ?? {};
  const arrays = Object.keys(props).filter((k) => props[k].type === 'array' && props[k].items && typeof props[k].items === 'object');
  if (!arrays.length) return whole;
  // The slices' validators are compiled when a long body first needs them, not at every gateway start.
  let parts: { head: ValidateFunction; items: Array<readonly [string, ValidateFunction]> } | undefined;
  const partsOf = () => {
    if (parts) return parts;
    const withoutItems = Object.fromEntries(arrays.map((k) => [k, Object.fromEntries(Object.entries(props[k]).filter(([kw]) => kw !== 'items'))]));
    return (parts = {
      head: ajv.compile({ ...schema, properties: { ...props, ...withoutItems } }),
      items: arrays.map((k) => [k, ajv.compile(props[k].items as object)] as const),
    });
  };

  const checkRows = async (body: Record<string, unknown>): Promise<boolean> => {
    const { head, items } = partsOf();
    const headErrors = head(body) ? [] : [...(head.errors ?? [])];
    const under = (e: ErrorObject, key: string) => e.instancePath === `/${key}` || e.instancePath.startsWith(`/${key}/`);
    // In the whole schema's order: the other fields' errors, then per array its items' errors and its own.
    const errors = headErrors.filter((e) => !items.some(([key]) => under(e, key)));
    for (const [key, item] of items) {
      const rows = body[key];
      for (let from = 0; Array.isArray(rows) && from < rows.length; from += SLICE_ROWS) {
        await yieldToLoop();
        for (let i = from; i < Math.min(rows.length, from + SLICE_ROWS); i++) {
          if (!item(rows[i])) for (const e of item.errors ?? []) errors.push({ ...e, instancePath: `/${key}/${i}${e.instancePath}` });
        }
      }
      errors.push(...headErrors.filter((e) => under(e, key)));
    }
    validate.errors = errors.length ? errors : null;
    return errors.length === 0;
  };

  const validate: BodyValidator = (data) => {
    const body = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
    if (body && arrays.some((key) => Array.isArray(body[key]) && (body[key] as unknown[]).length > SLICE_ROWS)) return checkRows(body);
    const ok = whole(data);
    validate.errors = whole.errors;
    return ok;
  };
  return validate;
}
