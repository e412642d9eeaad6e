import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_PACK_LABELS } from '../../src/shared/labels';

/**
 * Issue 9 §4: every text a user sees is Simplified Chinese. Scans the page schemas and the runtime's
 * source for user-visible English.
 */
const ROOT = resolve(import.meta.dirname, '../..');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p, ext) : ext.test(n) ? [p] : [];
  });
}

/** Words a Chinese user meets as they are (file types, ID, brand-free acronyms). */
const ALLOWED = new Set(['CSV', 'TSV', 'Excel', 'PDF', 'JPG', 'PNG', 'MB', 'KB', 'xlsx', 'xls', 'csv', 'ID', 'OK', 'API', 'Idempotency', 'Key', 'English']);
const englishWords = (s: string) => (s.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => !ALLOWED.has(w));

/** Keys of schema files whose string values are shown to users. */
const VISIBLE_KEYS = new Set(['title', 'label', 'description', 'placeholder', 'patternMessage', 'successMessage', 'brand', 'emptyText']);

function visibleStrings(v: unknown, path: string, out: Array<{ path: string; text: string }>, parentKey = ''): void {
  if (typeof v === 'string') {
    if (VISIBLE_KEYS.has(parentKey) || path.includes('.messages.')) out.push({ path, text: v });
  } else if (Array.isArray(v)) v.forEach((x, i) => visibleStrings(x, `${path}[${i}]`, out, parentKey));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) if (k !== '$schema') visibleStrings(x, `${path}.${k}`, out, k);
  }
}

describe('user-visible language', () => {
  it('schemas show no English in titles, labels, descriptions, placeholders or messages', () => {
    const found: string[] = [];
    for (const f of files(join(ROOT, 'schemas'), /\.json$/)) {
      if (f.includes(`${join('schemas', 'meta')}`)) continue;
      const out: Array<{ path: string; text: string }> = [];
      visibleStrings(JSON.parse(readFileSync(f, 'utf8')), '', out);
      for (const { path, text } of out) if (englishWords(text).length) found.push(`${relative(ROOT, f)}${path}: ${text}`);
    }
    expect(found).toEqual([]);
  });

  it('the runtime shows no English in JSX text, visible props or toasts', () => {
    const found: string[] = [];
    const PROPS = /\b(?:title|label|placeholder|description|message|okText|cancelText|subTitle|emptyText|tooltip|aria-label|alt)=(?:"([^"]*)"|\{'([^']*)'\}|\{`([^`]*)`\})/g;
    const TOASTS = /\bmessage\.(?:success|error|warning|info|loading)\(\s*(?:'([^']*)'|`([^`]*)`)/g;
    const JSX_TEXT = />\s*([^<>{}\n]*[A-Za-z][^<>{}\n]*?)\s*</g;
    for (const f of files(join(ROOT, 'src/runtime'), /\.tsx?$/)) {
      const src = readFileSync(f, 'utf8');
      const hits: string[] = [];
      for (const re of [PROPS, TOASTS]) for (const m of src.matchAll(re)) hits.push(m.slice(1).find((x) => x !== undefined) ?? '');
      // JSX text; TypeScript generics (`Promise<X>`, `Record<…>, sort as Record<…>`) are not text.
      if (f.endsWith('.tsx')) {
        for (const m of src.matchAll(JSX_TEXT)) {
          const t = m[1];
          if (/[=;()&|,?]| as /.test(t) || /^(?:Record|Promise|Array|Partial|Omit|Pick|Map|Set|HTMLElement|T)$/.test(t)) continue;
          hits.push(t);
        }
      }
      for (const h of hits) if (englishWords(h.replace(/\$\{[^}]*\}/g, '')).length) found.push(`${relative(ROOT, f)}: ${h}`);
    }
    expect(found).toEqual([]);
  });

  it("no English library defaults such as Formily's 'The field value is required' anywhere in the console", () => {
    const all = ['src/runtime', 'src/shared', 'src/services', 'src/stores', 'src/utils'].flatMap((d) => files(join(ROOT, d), /\.tsx?$/));
    all.push(...files(join(ROOT, 'schemas'), /\.json$/));
    const code = (f: string) => readFileSync(f, 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '');
    const hits = all.filter((f) => /The field value is required|This field is required|is not a valid/.test(code(f)));
    expect(hits.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it('the business table names service packs with SERVICE_PACK_LABELS, not their ids', () => {
    const table = JSON.parse(readFileSync(join(ROOT, 'schemas/tables/businesses.json'), 'utf8')) as {
      columns: Array<{ dataIndex: string; options?: Array<{ value: string; label: string }> }>;
    };
    const packs = table.columns.find((c) => c.dataIndex === 'servicePacks');
    expect(Object.fromEntries((packs?.options ?? []).map((o) => [o.value, o.label]))).toEqual(SERVICE_PACK_LABELS);
  });

  it('one name per person state: the persons list and the insurance records agree on 已过期', () => {
    const opts = (entity: string) =>
      (JSON.parse(readFileSync(join(ROOT, `schemas/entities/${entity}.json`), 'utf8')) as { fields: { status: { options: Array<{ value: string; label: string }> } } })
        .fields.status.options;
    const person = Object.fromEntries(opts('insured-person').map((o) => [o.value, o.label]));
    const record = Object.fromEntries(opts('insure-record').map((o) => [o.value, o.label]));
    expect(person.ended).toBe(record.expired);
    expect(Object.values(person)).not.toContain('已退保');
  });
});
