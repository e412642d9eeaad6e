import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_ROWS, parseRosterInWorker, prewarmParseWorker, type ValidatorModuleRef } from '../../src/server/files/parse-in-worker.ts';
import { ROSTER_COLUMNS } from '../../src/server/files/roster-columns.ts';
import { idCardCheckChar } from '../../src/shared/checks.ts';
import type { Progress } from '../../src/server/files/types.ts';

const validatorModule: ValidatorModuleRef = {
  path: fileURLToPath(new URL('../../src/server/files/roster-columns.ts', import.meta.url)),
  exportName: 'createRosterValidator',
};

/** A valid 18-digit ID for person i (birth dates spread over 1970–1999). */
export function idFor(i: number): string {
  const birth = `${1970 + (i % 30)}${String(1 + (i % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}`;
  const first17 = `110101${birth}${String(Math.floor(i / 420) % 1000).padStart(3, '0')}`; // unique for i < 420,000
  return first17 + idCardCheckChar(first17);
}

/** The command lines of this process's parse processes (Linux /proc). */
function parseProcesses(): string[] {
  const pids = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  return pids
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      } catch {
        return '';
      }
    })
    .filter((cmd) => /worker(-[0-9a-f]+\.mjs|\.ts)/.test(cmd));
}

async function bigXlsx(n: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('名单');
  ws.addRow(['姓名', '身份证号', '手机号', '工种']);
  for (let i = 0; i < n; i++) ws.addRow([`员工${i}`, i === 10 ? 'bad' : idFor(i), `138${String(i).padStart(8, '0')}`, '普工']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('parseRosterInWorker', () => {
  it('parses 50,000 rows in a parse process with progress, keeping the event loop free', async () => {
    const n = MAX_ROWS;
    const buf = await bigXlsx(n);
    const t0 = performance.now();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const events: Progress[] = [];
    const task = parseRosterInWorker({ buffer: buf, ext: 'xlsx', columns: ROSTER_COLUMNS, keyColumn: 'idCard', coveredKeys: async (keys) => keys.filter((k) => k === idFor(20)), validatorModule });
    task.onProgress((p) => events.push(p));
    const preview = await task.result;
    clearInterval(ticker);
    const seconds = (performance.now() - t0) / 1000;
    console.log(`[files-worker] ${n} rows (${(buf.length / 1024 / 1024).toFixed(1)} MB xlsx) parsed + validated in worker: ${seconds.toFixed(2)} s, ${Math.round(n / seconds)} rows/s, ${ticks} main-loop ticks`);
    expect(preview.total).toBe(n);
    expect(preview.errors).toEqual([{ row: 12, column: 'idCard', label: '身份证号', message: '身份证号不正确' }]);
    expect(preview.duplicates).toEqual([{ row: 22, column: 'idCard', message: '该人员已在保' }]);
    expect(preview.valid.length).toBe(n - 2);
    expect(preview.valid[0]).toEqual({ row: 2, values: { name: '员工0', idCard: idFor(0), phone: '13800000000', jobType: '普工' } });
    expect(events.length).toBeGreaterThanOrEqual(50);
    for (let i = 1; i < events.length; i++) expect(events[i].done - events[i - 1].done).toBeLessThanOrEqual(1000);
    expect(events.at(-1)).toEqual({ done: n, total: n, percent: 100 });
    expect(ticks).toBeGreaterThan(seconds * 10); // the main thread kept running timers
  }, 90_000);

  it('asks for the covered keys once the file is read, with only the keys the file holds', async () => {
    const csv = Buffer.from(
      ['姓名,身份证号,手机号,工种', `张甲,${idFor(1)},13800000001,普工`, `李乙,${idFor(2).toLowerCase()} ,13800000002,普工`, `王丙,${idFor(1)},13800000003,普工`, `赵丁,,13800000004,普工`].join('\n'),
    );
    const asked: string[][] = [];
    const task = parseRosterInWorker({
      buffer: csv, ext: 'csv', columns: ROSTER_COLUMNS, keyColumn: 'idCard', validatorModule,
      coveredKeys: async (keys) => {
        asked.push(keys);
        return keys.filter((k) => k === idFor(2).toUpperCase());
      },
    });
    const preview = await task.result;
    // Distinct, trimmed, upper case; the empty cell is not a key.
    expect(asked).toEqual([[idFor(1), idFor(2).toUpperCase()]]);
    expect(preview.duplicates).toEqual([
      { row: 3, column: 'idCard', message: '该人员已在保' },
      { row: 4, firstRow: 2, column: 'idCard', message: '与第 2 行重复' },
    ]);
    expect(preview.valid.map((r) => r.row)).toEqual([2]);
    // A failed lookup fails the parse with the generic message, and the worker is stopped.
    const failing = parseRosterInWorker({ buffer: csv, ext: 'csv', columns: ROSTER_COLUMNS, keyColumn: 'idCard', validatorModule, coveredKeys: () => Promise.reject(new Error('db down')) });
    await expect(failing.result).rejects.toMatchObject({ code: 'INTERNAL', message: '文件解析失败，请稍后重试' });
  });

  it('returns pages of rows with their errors and duplicates (the upload keeps them so), through a worker started ahead', async () => {
    const lines = ['姓名,身份证号,手机号,工种'];
    for (let i = 0; i < 7; i++) lines.push(`员工${i},${i === 5 ? idFor(0) : idFor(i)},${i === 3 ? '123' : ''},`);
    prewarmParseWorker();
    // It runs the entry bundled as plain JavaScript (plain-js.ts), on node alone: no tsx loader to start.
    const started = parseProcesses();
    expect(started).toHaveLength(1);
    expect(started[0]).toMatch(/node_modules\/\.cache\/console-parse\/worker-[0-9a-f]{16}\.mjs/);
    expect(started[0]).not.toContain('tsx');
    const p = await parseRosterInWorker({ buffer: Buffer.from(lines.join('\n')), ext: 'csv', columns: ROSTER_COLUMNS, keyColumn: 'idCard', validatorModule, pageSize: 3 }).result;
    expect(p.counts).toEqual({ total: 7, valid: 5, errors: 1, duplicates: 1 });
    expect([p.valid, p.errors, p.duplicates]).toEqual([[], [], []]);
    const pages = p.pages!.map((x) => JSON.parse(x));
    expect(pages.map((x) => x.rowNumbers)).toEqual([[2, 3, 4], [5, 6, 7], [8]]);
    expect(pages[1].rows[0]).toEqual(['员工3', idFor(3), '123', '']);
    expect(pages[1].errors).toEqual([{ row: 5, column: 'phone', label: '手机号', message: '请输入正确的 11 位手机号' }]);
    expect(pages[1].duplicates).toEqual([{ row: 7, firstRow: 2, column: 'idCard', message: '与第 2 行重复' }]);
    expect(pages[0].errors).toEqual([]);
  });

  it("a file that fills the parse process's heap ends that process with a message, the gateway goes on", async () => {
    const lines = ['姓名,身份证号,手机号,工种'];
    for (let i = 0; i < MAX_ROWS; i++) lines.push(`员工${i}${'很长的名字'.repeat(5)},${idFor(i)},13800000000,普工${'x'.repeat(20)}`);
    const task = parseRosterInWorker({ buffer: Buffer.from(lines.join('\n')), ext: 'csv', columns: ROSTER_COLUMNS, keyColumn: 'idCard', validatorModule, maxHeapMb: 24 });
    await expect(task.result).rejects.toMatchObject({ code: 'TOO_LARGE', message: '文件内容过多，无法解析，请拆分后上传' });
  }, 60_000);

  it('asks for an ID number typed with a lower-case x in upper case, and marks its row 该人员已在保', async () => {
    const withX = '11010119900307002X';
    const csv = Buffer.from(['姓名,身份证号,手机号,工种', `张甲,${withX.toLowerCase()},13800000001,普工`, `李乙,${idFor(1)},13800000002,普工`].join('\n'));
    const asked: string[][] = [];
    // The stored side holds upper case only (every write path upper-cases ID numbers).
    const stored = new Set([withX, idFor(7)]);
    const task = parseRosterInWorker({
      buffer: csv, ext: 'csv', columns: ROSTER_COLUMNS, keyColumn: 'idCard', validatorModule,
      coveredKeys: async (keys) => {
        asked.push(keys);
        return keys.filter((k) => stored.has(k));
      },
    });
    const preview = await task.result;
    expect(asked).toEqual([[withX, idFor(1)]]);
    expect(preview.duplicates).toEqual([{ row: 2, column: 'idCard', message: '该人员已在保' }]);
    expect(preview.valid.map((r) => r.row)).toEqual([3]);
  });

  it('refuses a wrong header, too many rows and too many bytes with user messages', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('x').addRows([
      ['张三', idFor(1), '13800138000'],
      ['李四', idFor(2), '13800138001'],
    ]);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const base = { ext: 'xlsx', columns: ROSTER_COLUMNS, keyColumn: 'idCard', validatorModule };
    await expect(parseRosterInWorker({ ...base, buffer: buf }).result).rejects.toMatchObject({ code: 'HEADER_MISSING', message: '表头缺少列：姓名、身份证号、手机号' });
    const csv = Buffer.from(`姓名,身份证号,手机号\n${`张三,${idFor(1)},\n`.repeat(6)}`);
    await expect(parseRosterInWorker({ ...base, ext: 'csv', buffer: csv, maxRows: 5 }).result).rejects.toMatchObject({ code: 'TOO_MANY_ROWS', message: '单个文件最多 5 行，当前 6 行' });
    await expect(parseRosterInWorker({ ...base, buffer: Buffer.alloc(11 * 1024 * 1024) }).result).rejects.toMatchObject({ code: 'TOO_LARGE', message: '文件过大，最大 10 MB' });
    await expect(parseRosterInWorker({ ...base, ext: 'csv', validatorModule: { ...validatorModule, exportName: 'nope' }, buffer: csv }).result).rejects.toMatchObject({ code: 'INTERNAL' });
  });
});
