import type { FormField, FormSchema } from '../../schema/types';
import { api, newIdempotencyKey, type FieldError } from '../../services/request';
import { sameValueMessage } from '../../shared/entity/messages';

/**
 * What every schema form does on submit, whichever renderer draws it (FormPage with Formily, PublicForm
 * with antd Form): confirmation check, payload, one Idempotency-Key per submit, labels of gateway errors.
 */

/** Checks a confirmation input (confirmOf) against the field it repeats; returns the mismatching input. */
export function confirmMismatch(schema: FormSchema, values: Record<string, unknown>): string | undefined {
  const confirm = schema.fields.find((f) => f.confirmOf);
  if (confirm && values[confirm.confirmOf!] !== values[confirm.name]) return confirm.name;
  return undefined;
}

export const CONFIRM_MISMATCH = '两次输入的密码不一致';

/** A field whose value equals the field it must differ from (differsFrom), with its message; else undefined. */
export function sameAsOther(schema: FormSchema, values: Record<string, unknown>): { field: string; message: string } | undefined {
  for (const f of schema.fields) {
    if (!f.differsFrom) continue;
    const v = values[f.name];
    if (v === undefined || v === null || v === '' || v !== values[f.differsFrom]) continue;
    const other = schema.fields.find((o) => o.name === f.differsFrom);
    return { field: f.name, message: sameValueMessage(f.title, other?.title ?? f.differsFrom) };
  }
  return undefined;
}

/** Formily's own bookkeeping keys on array rows (e.g. ArrayTable's `__DO_NOT_USE_THIS_PROPERTY_index__`). */
const INTERNAL_KEY = /^__.*__$/;

function withoutInternalKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutInternalKeys);
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).filter(([k]) => !INTERNAL_KEY.test(k)).map(([k, x]) => [k, withoutInternalKeys(x)]));
  }
  return v;
}

/** What is sent: the values without the form-only confirmation inputs and without the form library's row keys. */
export function payloadOf(schema: FormSchema, values: Record<string, unknown>): Record<string, unknown> {
  const confirmOnly = new Set(schema.fields.filter((f) => f.confirmOf).map((f) => f.name));
  return withoutInternalKeys(Object.fromEntries(Object.entries(values).filter(([k]) => !confirmOnly.has(k)))) as Record<string, unknown>;
}

/** Label of a gateway field path: 'rows[0].name' → the roster column title, 'phone' → 手机号; unknown → undefined (never the key). */
export function labelLookup(fields: FormField[]) {
  return (path: string): string | undefined => {
    const m = /^(\w+)(?:\[\d+\]\.(\w+))?$/.exec(path);
    if (!m) return undefined;
    const f = fields.find((x) => x.name === m[1]);
    if (!m[2]) return f?.title;
    const col = f?.columns?.find((c) => c.name === m[2]) ?? fields.find((x) => x.name === m[2]);
    return col?.title;
  };
}

export type ServerError = FieldError;

/** The key of the last unsuccessful submit and the content it was sent with. */
export type SubmitKeyRef = { current?: { body: string; key: string } };

/**
 * Sends the payload to the schema's endpoint. One Idempotency-Key per submit: sending the same content
 * again (e.g. after a network error) reuses it, so the gateway answers with the first result instead of
 * charging twice; edited content gets a new key. The key is forgotten once a submit succeeded.
 */
export async function sendForm(schema: FormSchema, payload: Record<string, unknown>, submitKey: SubmitKeyRef): Promise<unknown> {
  const body = JSON.stringify(payload);
  if (submitKey.current?.body !== body) submitKey.current = { body, key: newIdempotencyKey() };
  const opts = { idempotencyKey: submitKey.current.key };
  const result = await (schema.submit.method === 'PUT' ? api.put(schema.submit.api, payload, opts) : api.post(schema.submit.api, payload, opts));
  submitKey.current = undefined;
  return result;
}
