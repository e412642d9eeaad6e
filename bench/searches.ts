/**
 * Short contains-searches: every list of a seeded entity (orders, insured persons) searched on each of
 * its `contains` fields with a term of one and of two characters taken from a real value, and with a
 * two-character term that matches nothing, by 10 concurrent users. Figures: p99 ≤ 100 ms on PostgreSQL
 * (issue 22: 1–2 character searches at 1M), ≤ 200 ms on PGlite; and for each real term, a total that is
 * exact or said to be an estimate (the API's `estimated` flag), checked against a count in the database,
 * and the last matching row reachable (the page holding it has rows).
 */
import { loadSchemaFiles } from '../src/schema/load-node.ts';
import { buildEntityRegistry } from '../src/shared/entity/registry.ts';
import { columnOf, tableOf } from '../src/server/entity/ddl.ts';
import type { TableSchemaFile } from '../src/schema/types.ts';
import { BUSINESS, type DbTarget, type Gateway } from './lib/gateway.ts';
import { loadGet } from './endpoints.ts';
import { Report } from './lib/report.ts';
import { settle } from './lib/settle.ts';
import { fmtCount, summarize } from './lib/stats.ts';
import { openSeedDb } from './seed.ts';

export const SEARCH_TARGET_MS = { postgres: 100, pglite: 200 } as const;
/** Entities the bench seeds (bench/seed.ts). */
const SEEDED = ['order', 'insured-person'];
const PAGE_SIZE = 20;
/** Two characters no seeded value holds. */
const NO_MATCH = '龘龖';

export interface SearchCase {
  api: string;
  table: string;
  column: string;
  field: string;
  term: string;
  kind: '1 char' | '2 chars' | '2 chars, no match';
}

/** The lists of seeded entities and their contains-fields (from the table and entity schemas). */
export function containsFields(repoRoot: string): Array<{ api: string; table: string; field: string; column: string }> {
  const { files } = loadSchemaFiles(repoRoot);
  const reg = buildEntityRegistry(files);
  const out: Array<{ api: string; table: string; field: string; column: string }> = [];
  const seen = new Set<string>();
  for (const [path, data] of Object.entries(files)) {
    if (!path.startsWith('schemas/tables/')) continue;
    const t = data as TableSchemaFile;
    if (!t.entity || !SEEDED.includes(t.entity)) continue;
    const e = reg.get(t.entity);
    const api = t.api ?? e.api;
    if (!api || seen.has(api)) continue;
    seen.add(api);
    for (const [key, f] of Object.entries(reg.fieldsOf(t.entity))) {
      if (f.search === 'contains' && !f.mask) out.push({ api, table: tableOf(e), field: key, column: columnOf(key, f) });
    }
  }
  return out;
}

/**
 * Real counts by size, table, column and term: counted on PostgreSQL, reused for PGlite, whose database
 * only the gateway may open while it runs (both are seeded by the same statements: the same rows).
 */
const truth = new Map<string, number>();

export async function runSearches(gw: Gateway, target: DbTarget, size: number, report: Report, repoRoot: string, opts: { concurrency: number; requests: number; durationMs: number }): Promise<void> {
  const driver = target.driver;
  const label = `${driver === 'postgres' ? 'PostgreSQL' : 'PGlite'} ${fmtCount(size)}`;
  const cases: SearchCase[] = [];
  for (const f of containsFields(repoRoot)) {
    const sample = await gw.get<{ list: Array<Record<string, unknown>> }>(`${f.api}?current=5&pageSize=${PAGE_SIZE}`);
    const value = String(sample.list.find((r) => typeof r[f.field] === 'string' && Array.from(String(r[f.field])).length >= 2)?.[f.field] ?? '');
    if (!value) {
      report.note(`${label}: no value of ${f.api} ${f.field} to search for`);
      continue;
    }
    const chars = Array.from(value);
    cases.push({ ...f, term: chars[0], kind: '1 char' }, { ...f, term: chars.slice(0, 2).join(''), kind: '2 chars' }, { ...f, term: NO_MATCH, kind: '2 chars, no match' });
  }
  const quiet = await settle();
  console.log(`    machine quiet after ${(quiet.waitedMs / 1000).toFixed(1)} s (${Math.round(quiet.idle * 100)} % idle)`);
  const db = driver === 'postgres' ? await openSeedDb(target) : undefined;
  try {
    for (const c of cases) {
      const query = `current=1&pageSize=${PAGE_SIZE}&${c.field}=${encodeURIComponent(c.term)}`;
      const load = await loadGet(gw, `${c.api}?${query}`, opts);
      const s = summarize(load.latencies);
      const body = (load.lastBody as { data?: { total?: number; estimated?: boolean; totalIsEstimate?: boolean } } | undefined)?.data;
      const name = `${label} ${c.api} ${c.field} contains「${c.term}」(${c.kind})`;
      report.add({
        section: 'searches',
        figure: `${name} p99`,
        value: s.n ? s.p99 : 'no answers',
        unit: 'ms',
        target: `≤ ${SEARCH_TARGET_MS[driver]} ms`,
        pass: !load.timedOut && load.errors === 0 && s.n > 0 && s.p99 <= SEARCH_TARGET_MS[driver],
        note: [`p50 ${Math.round(s.p50)} ms, n=${s.n}`, load.timedOut ? 'duration cap' : '', load.errors ? `${load.errors} errors: ${load.firstError?.slice(0, 80)}` : '']
          .filter(Boolean)
          .join('; '),
      });
      if (c.kind === '2 chars, no match') continue;
      // The truth: a count of the business's rows whose value holds the term.
      const key = `${size} ${c.table}.${c.column} ${c.term}`;
      if (db) {
        const [row] = await db.query(`SELECT count(*)::int AS n FROM ${c.table} WHERE business_id = $1 AND ${c.column} LIKE $2`, [BUSINESS, `%${c.term.replace(/[\\%_]/g, '\\$&')}%`]);
        truth.set(key, Number(row.n));
      }
      const total = Number(body?.total);
      const real = truth.get(key);
      if (real === undefined) {
        report.add({ section: 'searches', figure: `${name} total`, value: String(body?.total), unit: '', target: '', pass: null, note: 'no count to compare with (counted on PostgreSQL: run both drivers)' });
        continue;
      }
      const estimated = body?.estimated === true || body?.totalIsEstimate === true;
      report.add({
        section: 'searches',
        figure: `${name} total`,
        value: Number.isFinite(total) ? `${total.toLocaleString('en')}${estimated ? ' (estimate)' : ''}` : 'no total',
        unit: '',
        target: `${real.toLocaleString('en')} or marked as an estimate`,
        pass: total === real || (estimated && Number.isFinite(total)),
      });
      // Every row reachable: the page that holds the last matching row has rows.
      const last = Math.max(1, Math.ceil(real / PAGE_SIZE));
      const t0 = performance.now();
      const end = await gw.get<{ list: unknown[]; current?: number }>(`${c.api}?current=${last}&pageSize=${PAGE_SIZE}&${c.field}=${encodeURIComponent(c.term)}`).catch((e: Error) => ({ list: [], error: e.message }));
      const ms = performance.now() - t0;
      report.add({
        section: 'searches',
        figure: `${name} last matching row reachable (page ${last.toLocaleString('en')})`,
        value: `${end.list.length} rows`,
        unit: '',
        target: `${real - (last - 1) * PAGE_SIZE} rows`,
        pass: end.list.length === real - (last - 1) * PAGE_SIZE,
        note: `one request, ${Math.round(ms)} ms${'error' in end ? `; ${String(end.error).slice(0, 80)}` : ''}`,
      });
    }
  } finally {
    await db?.close();
  }
}
