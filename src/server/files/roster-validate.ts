import { requireColumns } from './roster-map.ts';
import type { CellError, DuplicateRow, Preview, PreviewRow, ProbedKey, RowValidator, SheetColumn, SheetTable } from './types.ts';

export interface BuildPreviewInput {
  /** As returned by readSheet (rowNumbers/issues optional: defaults headerRow + i + 1 / none). */
  table: Pick<SheetTable, 'headers' | 'rows' | 'headerRow'> & Partial<Pick<SheetTable, 'rowNumbers' | 'issues'>>;
  columns: readonly SheetColumn[];
  validateRow: RowValidator;
  /**
   * Keys already insured, or [key, reason] that cannot be insured (compared case-insensitively after
   * trimming): see markCovered.
   */
  existingKeys?: ReadonlySet<string> | readonly ProbedKey[];
  /** Column whose value identifies a person, e.g. 'idCard'. */
  keyColumn: string;
  /** Called every `progressEvery` rows and at the end. */
  onProgress?: (done: number, total: number) => void;
  progressEvery?: number;
}

/** A key as compared with existing ones: trimmed, upper case (ID numbers are stored upper case). */
export const normKey = (s: string): string => s.trim().toUpperCase();

/**
 * Validate every row of a sheet: the caller's RowValidator, duplicates within the file by
 * keyColumn (「与第 N 行重复」) and against existingKeys (「该人员已在保」, or the reason a key cannot
 * be insured as an error of its cell). Rows with any error or duplicate are left out of `valid`;
 * `counts` puts every row in one category (see PreviewCounts).
 * Throws SheetError HEADER_MISSING when required columns are missing, so a wrong header row is never
 * imported as a person.
 */
export function buildPreview(input: BuildPreviewInput): Preview {
  const checked = checkRows(input);
  if (input.existingKeys) markCovered(checked, input.keyColumn, input.existingKeys);
  return checked.preview;
}

/** A preview before the keys already insured are known, with the first row of each well-formed key. */
export interface CheckedRows {
  preview: Preview;
  firstSeen: Map<string, number>;
  /** The key column's label (for an error of its cell). */
  keyLabel: string;
}

/**
 * buildPreview without existingKeys: the rows checked while the keys already insured are looked up
 * (the parse worker asks for them first and marks them with markCovered once they are known).
 */
export function checkRows(input: Omit<BuildPreviewInput, 'existingKeys'>): CheckedRows {
  const checker = rowChecker(input);
  checker.run(Infinity);
  return checker.result();
}

/**
 * checkRows in slices of `slice` rows with a turn of the event loop between them, so that what the
 * process sends meanwhile (the parse process's key lookup and progress) leaves while the rows are checked.
 */
export async function checkRowsYielding(input: Omit<BuildPreviewInput, 'existingKeys'>, slice = 500): Promise<CheckedRows> {
  const checker = rowChecker(input);
  while (!checker.run(slice)) await new Promise<void>((resolve) => setImmediate(resolve));
  return checker.result();
}

/** The rows of checkRows, checked `n` at a time by run() (true once every row is). */
function rowChecker(input: Omit<BuildPreviewInput, 'existingKeys'>): { run(n: number): boolean; result(): CheckedRows } {
  const { table, columns, validateRow, keyColumn, onProgress } = input;
  const every = input.progressEvery ?? 1000;
  const mapping = requireColumns(table.headers, columns);
  const labels = new Map(columns.map((c) => [c.key, c.label]));
  const keyByCol = new Map(Object.entries(mapping.index).map(([k, i]) => [i, k]));
  const rowNumbers = table.rowNumbers ?? table.rows.map((_, i) => table.headerRow + i + 1);

  const errors: CellError[] = [];
  const duplicates: DuplicateRow[] = [];
  const valid: PreviewRow[] = [];
  const firstSeen = new Map<string, number>();
  const bad = new Set<number>();
  const badKey = new Set<number>();

  // Cell issues found while reading (e.g. precision lost) count as errors of their column.
  for (const issue of table.issues ?? []) {
    const key = keyByCol.get(issue.col);
    if (!key) continue;
    errors.push({ row: issue.row, column: key, label: labels.get(key) ?? key, message: issue.message });
    bad.add(issue.row);
    if (key === keyColumn) badKey.add(issue.row);
  }

  const examples = columns.filter((c) => c.example);
  const total = table.rows.length;
  const counts = { total, valid: 0, errors: 0, duplicates: 0 };
  let i = 0;
  const run = (n: number): boolean => {
    const end = Math.min(total, i + n);
    for (; i < end; i++) {
      const cells = table.rows[i];
      const row = rowNumbers[i];
      const values: Record<string, string> = {};
      for (const c of columns) {
        const idx = mapping.index[c.key];
        values[c.key] = idx === undefined ? '' : (cells[idx] ?? '');
      }
      const rowErrors = [...validateRow(values, row)];
      // The template's example row left in place must not become a person.
      if (examples.length && examples.every((c) => values[c.key] === c.example)) {
        rowErrors.unshift({ column: examples[0].key, message: '这是模板中的示例行，请删除后重新上传' });
      }
      for (const e of rowErrors) errors.push({ row, column: e.column, label: labels.get(e.column) ?? e.column, message: e.message });
      const key = normKey(values[keyColumn] ?? '');
      let dup = false;
      // Duplicates are only meaningful for a well-formed key.
      if (key && !badKey.has(row) && !rowErrors.some((e) => e.column === keyColumn)) {
        const first = firstSeen.get(key);
        if (first !== undefined) {
          duplicates.push({ row, firstRow: first, column: keyColumn, message: `与第 ${first} 行重复` });
          dup = true;
        } else firstSeen.set(key, row);
      }
      // One category per row: an error wins over a duplicate (the row is fixed first), so the counts add up.
      if (rowErrors.length > 0 || bad.has(row)) counts.errors++;
      else if (dup) counts.duplicates++;
      else {
        counts.valid++;
        valid.push({ row, values });
      }
      if (onProgress && ((i + 1) % every === 0 || i + 1 === total)) onProgress(i + 1, total);
    }
    return i >= total;
  };
  return {
    run,
    result() {
      if (onProgress && total === 0) onProgress(0, 0);
      return { preview: { total, counts, valid, errors, duplicates, headerRow: table.headerRow, unknownHeaders: mapping.unknown }, firstSeen, keyLabel: labels.get(keyColumn) ?? keyColumn };
    },
  };
}

/**
 * Marks the first row of each refused key (later rows of that key are already its in-file duplicates).
 * A plain key is already insured: 「该人员已在保」, a valid row becomes a duplicate. A [key, reason]
 * cannot be insured (e.g. outside the plan's insurable ages): the reason is an error of the key's cell,
 * a valid row becomes an error. A row that already has an error stays 有误 with both messages, so every
 * row stays in one category and the counts add up.
 */
export function markCovered({ preview, firstSeen, keyLabel }: CheckedRows, keyColumn: string, refused: Iterable<ProbedKey>): void {
  // Key → why it is refused: '' for already insured (a duplicate), else the reason (an error of the key's cell).
  const reasons = new Map<string, string>();
  for (const k of refused) {
    if (typeof k === 'string') reasons.set(normKey(k), '');
    else reasons.set(normKey(k[0]), k[1]);
  }
  if (reasons.size === 0) return;
  const covered = new Set<number>();
  const failed = new Set<number>();
  for (const [key, row] of firstSeen) {
    const reason = reasons.get(key);
    if (reason === undefined) continue;
    if (reason === '') {
      covered.add(row);
      preview.duplicates.push({ row, column: keyColumn, message: '该人员已在保' });
    } else {
      failed.add(row);
      preview.errors.push({ row, column: keyColumn, label: keyLabel, message: reason });
    }
  }
  if (covered.size === 0 && failed.size === 0) return;
  preview.duplicates.sort((a, b) => a.row - b.row);
  preview.errors.sort((a, b) => a.row - b.row);
  const kept = preview.valid.filter((v) => !covered.has(v.row) && !failed.has(v.row));
  const nowDuplicates = preview.valid.filter((v) => covered.has(v.row)).length;
  const nowErrors = preview.valid.length - kept.length - nowDuplicates;
  preview.valid = kept;
  preview.counts.valid -= nowDuplicates + nowErrors;
  preview.counts.duplicates += nowDuplicates;
  preview.counts.errors += nowErrors;
}

/** Errors and duplicates together as CellErrors (e.g. for errorWorkbook), ordered by row. */
export function previewErrors(preview: Preview, columns: readonly SheetColumn[]): CellError[] {
  const labels = new Map(columns.map((c) => [c.key, c.label]));
  const dups: CellError[] = preview.duplicates.map((d) => ({ row: d.row, column: d.column, label: labels.get(d.column) ?? d.column, message: d.message }));
  return [...preview.errors, ...dups].sort((a, b) => a.row - b.row);
}
