/**
 * Query-string and form-body encoding shared by the request client.
 * Arrays repeat their key (`ids=1&ids=2`, never `ids[]=`); Dates become ISO strings; plain objects become JSON.
 */
type Pairs = Array<[string, string]>;

function scalar(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function pairs(input: Record<string, unknown> | undefined | null, keep: (v: unknown) => boolean): Pairs {
  const out: Pairs = [];
  if (!input) return out;
  for (const [k, v] of Object.entries(input)) {
    if (Array.isArray(v)) {
      for (const x of v) if (keep(x)) out.push([k, scalar(x)]);
    } else if (keep(v)) {
      out.push([k, scalar(v)]);
    }
  }
  return out;
}

/** GET parameters: undefined, null and '' are dropped (also inside arrays). */
export function serializeParams(params: Record<string, unknown> | undefined | null): string {
  const usp = new URLSearchParams(pairs(params, (v) => v !== undefined && v !== null && v !== ''));
  return usp.toString();
}

/**
 * application/x-www-form-urlencoded body: undefined and null are dropped, '' is kept (a cleared field is a value).
 * A non-object body is sent as its string form.
 */
export function toFormBody(data: unknown): string {
  if (data instanceof URLSearchParams) return data.toString();
  if (data === null || typeof data !== 'object') return data === undefined || data === null ? '' : String(data);
  return new URLSearchParams(pairs(data as Record<string, unknown>, (v) => v !== undefined && v !== null)).toString();
}
