/**
 * State of the roster editor, kept outside React: each row is an immutable snapshot replaced on
 * change. Its checks (errors, duplicate, status) are a separate snapshot with its own listeners, told
 * only when a check changes: the editor's inputs are uncontrolled, so a keystroke that changes no check
 * re-renders nothing, and one that does re-renders that row only (not the 5,000 others). The list
 * subscribes to structure changes (rows added, removed, loaded) and the summary to counts, recounted
 * (at most once per animation frame) only when a row's status changed.
 *
 * Rows are checked with the entity rules (checkField, the same function the gateway runs) and for
 * duplicate ID cards among the rows; an "already insured" mark from the gateway stays until the ID
 * card is edited.
 */
import { cellValue } from '../../../../shared/entity/cells';
import { checkField } from '../../../../shared/entity/rules';
import type { FieldSchema } from '../../../../shared/entity/types';

export interface RosterColumn {
  key: string;
  title: string;
  rule?: FieldSchema;
}

export type RowStatus = 'valid' | 'error' | 'duplicate';

export interface EditorRow {
  id: number;
  /** Sheet row number of an uploaded row; null for a row added here. */
  row: number | null;
  values: Record<string, string>;
  /** Column key → message. */
  errors: Record<string, string>;
  /** Duplicate within the roster (「与第 N 行重复」) or already insured (from the gateway). */
  dup?: string;
  insured?: string;
  status: RowStatus;
}

/** What the editor shows of a row besides its values (the inputs hold those). */
export type RowChecks = Pick<EditorRow, 'id' | 'row' | 'errors' | 'dup' | 'insured' | 'status'>;

const sameErrors = (a: Record<string, string>, b: Record<string, string>) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
};
const sameChecks = (a: RowChecks, b: RowChecks) => a.status === b.status && a.dup === b.dup && a.insured === b.insured && a.row === b.row && sameErrors(a.errors, b.errors);
const checksOf = (r: EditorRow): RowChecks => ({ id: r.id, row: r.row, errors: r.errors, dup: r.dup, insured: r.insured, status: r.status });

export interface LoadRow {
  row: number | null;
  values: Record<string, string>;
  errors?: Record<string, string>;
  insured?: string;
}

export interface Counts {
  total: number;
  valid: number;
  errors: number;
  duplicates: number;
}

type Listener = () => void;

const keyOf = (v: string | undefined) => (v ?? '').trim().toUpperCase();

export class RosterStore {
  readonly columns: RosterColumn[];
  private rows = new Map<number, EditorRow>();
  private checks = new Map<number, RowChecks>();
  private order: number[] = [];
  private nextId = 1;
  private rowListeners = new Map<number, Set<Listener>>();
  private structureListeners = new Set<Listener>();
  private countListeners = new Set<Listener>();
  private groups = new Map<string, number[]>();
  private structureVersion = 0;
  private countsSnapshot: Counts = { total: 0, valid: 0, errors: 0, duplicates: 0 };
  private countsQueued = false;
  private edits = 0;

  constructor(columns: RosterColumn[]) {
    this.columns = columns;
  }

  // ---------------------------------------------------------------- subscriptions

  subscribeRow = (id: number, fn: Listener) => {
    let set = this.rowListeners.get(id);
    if (!set) this.rowListeners.set(id, (set = new Set()));
    set.add(fn);
    return () => set!.delete(fn);
  };
  subscribeStructure = (fn: Listener) => {
    this.structureListeners.add(fn);
    return () => this.structureListeners.delete(fn);
  };
  subscribeCounts = (fn: Listener) => {
    this.countListeners.add(fn);
    return () => this.countListeners.delete(fn);
  };
  getRow = (id: number): EditorRow | undefined => this.rows.get(id);
  /** The row's checks; a new snapshot only when one of them changed (what subscribeRow reports). */
  getChecks = (id: number): RowChecks | undefined => this.checks.get(id);
  getStructureVersion = () => this.structureVersion;
  getCounts = () => this.countsSnapshot;

  // ---------------------------------------------------------------- reads

  /** Row ids in order, optionally only those with a status. */
  ids(status?: RowStatus): number[] {
    return status ? this.order.filter((id) => this.rows.get(id)!.status === status) : this.order.slice();
  }

  get size(): number {
    return this.order.length;
  }

  /** Label of a row in messages: its sheet row, or its position for rows added here. */
  label(id: number): string {
    const r = this.rows.get(id);
    return r?.row ? `第 ${r.row} 行` : `第 ${this.order.indexOf(id) + 1} 条`;
  }

  /**
   * Whether the user changed the rows since they were loaded (a cell, a row added or removed). An upload
   * nobody edited is confirmed by its id alone: the gateway takes its stored valid rows, the same ones.
   */
  get edited(): boolean {
    return this.edits > 0;
  }

  /** The valid rows as the gateway's confirm body expects them, with their editor ids. */
  validRows(): Array<{ id: number; row: number | null; values: Record<string, string> }> {
    return this.order.map((id) => this.rows.get(id)!).filter((r) => r.status === 'valid').map((r) => ({ id: r.id, row: r.row, values: r.values }));
  }

  // ---------------------------------------------------------------- writes

  /** Replaces every row (an upload's first page, or empty). */
  load(rows: LoadRow[]): void {
    this.rows.clear();
    this.checks.clear();
    this.order = [];
    this.groups.clear();
    this.edits = 0;
    this.append(rows);
  }

  /**
   * Adds rows after the others (an upload's next page). Rows already there keep their checks: the new
   * ones come last, so an ID card they repeat keeps its first occurrence.
   */
  append(rows: LoadRow[]): void {
    const added: number[] = [];
    for (const r of rows) {
      const id = this.nextId++;
      const values = Object.fromEntries(this.columns.map((c) => [c.key, r.values[c.key] ?? '']));
      // The gateway's messages (e.g. a template example row) over the same rules run here.
      const row: EditorRow = { id, row: r.row, values, errors: { ...this.check(values), ...r.errors }, insured: r.insured, status: 'valid' };
      this.rows.set(id, row);
      this.order.push(id);
      added.push(id);
      this.group(keyOf(values.idCard)).push(id);
    }
    for (const id of added) this.put(this.withStatus(this.rows.get(id)!));
    this.structureChanged();
  }

  addRow(): number {
    this.edits++;
    const id = this.nextId++;
    const values = Object.fromEntries(this.columns.map((c) => [c.key, '']));
    this.rows.set(id, { id, row: null, values, errors: this.check(values), status: 'valid' });
    this.order.push(id);
    this.group('').push(id);
    this.put(this.withStatus(this.rows.get(id)!));
    this.structureChanged();
    return id;
  }

  removeRow(id: number): void {
    const r = this.rows.get(id);
    if (!r) return;
    this.edits++;
    const key = keyOf(r.values.idCard);
    this.rows.delete(id);
    this.checks.delete(id);
    this.order = this.order.filter((x) => x !== id);
    this.ungroup(key, id);
    this.refreshGroup(key);
    this.structureChanged();
  }

  /** One keystroke: re-check this row, and the rows sharing its old or new ID card. */
  setCell(id: number, key: string, value: string): void {
    const r = this.rows.get(id);
    if (!r || r.values[key] === value) return;
    this.edits++;
    const values = { ...r.values, [key]: value };
    const errors = this.check(values);
    const before = keyOf(r.values.idCard);
    const after = key === 'idCard' ? keyOf(value) : before;
    if (before === after) return this.replace({ ...r, values, errors });
    // A new ID card: the gateway's "already insured" no longer applies, and both groups' marks may move.
    this.ungroup(before, id);
    this.group(after).push(id);
    this.rows.set(id, { ...r, values, errors, insured: undefined });
    this.refreshGroup(before);
    this.refreshGroup(after);
    this.replace(this.rows.get(id)!); // when its group was not refreshed (an emptied ID card)
  }

  /** Errors reported by the gateway for rows (e.g. on confirm), by editor id. */
  setErrors(byId: Map<number, Record<string, string>>): void {
    for (const [id, errs] of byId) {
      const r = this.rows.get(id);
      if (r) this.replace({ ...r, errors: { ...r.errors, ...errs } });
    }
  }

  // ---------------------------------------------------------------- internals

  private check(values: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const c of this.columns) {
      // A cell's text becomes its field's value first (a number, a date, an option), as the gateway does.
      const m = c.rule ? checkField(c.rule, cellValue(c.rule, values[c.key])) : undefined;
      if (m) out[c.key] = m;
    }
    return out;
  }

  private group(key: string): number[] {
    let g = this.groups.get(key);
    if (!g) this.groups.set(key, (g = []));
    return g;
  }

  private ungroup(key: string, id: number): void {
    const g = this.groups.get(key);
    if (!g) return;
    const i = g.indexOf(id);
    if (i >= 0) g.splice(i, 1);
    if (g.length === 0) this.groups.delete(key);
  }

  /** Duplicate marks of a group: every row after the first (in roster order) duplicates it. */
  private refreshGroup(key: string): void {
    const g = key ? this.groups.get(key) : undefined; // rows without an ID card duplicate nobody
    if (!g) return;
    if (g.length > 1) g.sort((a, b) => this.order.indexOf(a) - this.order.indexOf(b));
    for (const id of g) {
      const r = this.rows.get(id);
      if (r) this.replace(r);
    }
  }

  private withStatus(r: EditorRow): EditorRow {
    const key = keyOf(r.values.idCard);
    const g = key ? this.groups.get(key) : undefined;
    const first = g && g.length > 1 && g[0] !== r.id ? g[0] : undefined;
    const dup = first !== undefined ? `与${this.label(first)}重复` : undefined;
    const status: RowStatus = Object.keys(r.errors).length ? 'error' : dup || r.insured ? 'duplicate' : 'valid';
    return { ...r, dup, status };
  }

  /** Stores a row; its checks snapshot is replaced (and its listeners told) only when a check changed. */
  private replace(r: EditorRow): void {
    const next = this.withStatus(r);
    this.rows.set(r.id, next);
    const prev = this.checks.get(r.id);
    if (prev && sameChecks(prev, next)) return;
    this.checks.set(r.id, checksOf(next));
    if (prev?.status !== next.status) this.countsChanged();
    this.rowListeners.get(r.id)?.forEach((fn) => fn());
  }

  /** Stores a row and its checks without telling anyone (loading; the structure change follows). */
  private put(r: EditorRow): void {
    this.rows.set(r.id, r);
    this.checks.set(r.id, checksOf(r));
  }

  private computeCounts(): Counts {
    const c: Counts = { total: this.order.length, valid: 0, errors: 0, duplicates: 0 };
    for (const id of this.order) {
      const s = this.rows.get(id)!.status;
      if (s === 'valid') c.valid++;
      else if (s === 'error') c.errors++;
      else c.duplicates++;
    }
    return c;
  }

  private countsChanged(): void {
    if (this.countsQueued) return;
    this.countsQueued = true;
    const run = () => {
      this.countsQueued = false;
      const next = this.computeCounts();
      const prev = this.countsSnapshot;
      // Most keystrokes change no count: then nobody is told (the summary does not re-render).
      if (next.total === prev.total && next.valid === prev.valid && next.errors === prev.errors && next.duplicates === prev.duplicates) return;
      this.countsSnapshot = next;
      this.countListeners.forEach((fn) => fn());
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
    else setTimeout(run, 0);
  }

  private structureChanged(): void {
    this.structureVersion++;
    this.countsSnapshot = this.computeCounts();
    this.structureListeners.forEach((fn) => fn());
    this.countListeners.forEach((fn) => fn());
  }
}
