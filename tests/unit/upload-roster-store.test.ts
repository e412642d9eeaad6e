import { describe, expect, it } from 'vitest';
import { RosterStore } from '../../src/runtime/pages/custom/upload/rosterStore';
import type { FieldSchema } from '../../src/shared/entity/types';
import { idCardCheckChar } from '../../src/shared/checks';

const rule = (f: Partial<FieldSchema> & Pick<FieldSchema, 'type' | 'label'>): FieldSchema => f as FieldSchema;
const columns = [
  { key: 'name', title: '姓名', rule: rule({ type: 'string', label: '姓名', required: true, minLength: 2, maxLength: 30 }) },
  { key: 'idCard', title: '身份证号', rule: rule({ type: 'idCard', label: '身份证号', required: true }) },
];
const A = '11010519491231002X';
const B = `11010519900307001${idCardCheckChar('11010519900307001')}`;

function store(n: number): RosterStore {
  const s = new RosterStore(columns);
  s.load(Array.from({ length: n }, (_, i) => ({ row: i + 2, values: { name: `员工${i}`, idCard: i === 0 ? A : '' } })));
  return s;
}

describe('roster editor store', () => {
  it('a keystroke notifies nobody unless it changes a check, and then only the edited row, out of 5,000', () => {
    const s = store(5000);
    const ids = s.ids();
    const hits = new Map<number, number>();
    for (const id of ids) s.subscribeRow(id, () => hits.set(id, (hits.get(id) ?? 0) + 1));
    let structure = 0;
    s.subscribeStructure(() => structure++);
    const checks = s.getChecks(ids[10]);
    s.setCell(ids[10], 'name', '张三丰');
    // The input keeps its own text: a value that changes no check re-renders nothing.
    expect([...hits]).toEqual([]);
    expect(s.getChecks(ids[10])).toBe(checks);
    expect(s.getRow(ids[10])!.values.name).toBe('张三丰');
    s.setCell(ids[10], 'name', '张');
    expect([...hits]).toEqual([[ids[10], 1]]);
    expect(s.getChecks(ids[10])!.errors.name).toBeTruthy();
    expect(structure).toBe(0);
  });

  it('checks cells with the entity rules and finds duplicate ID cards among rows', () => {
    const s = store(3);
    const [a, b, c] = s.ids();
    expect(s.getRow(b)!.status).toBe('error');
    expect(s.getRow(b)!.errors.idCard).toBe('请填写身份证号');
    s.setCell(b, 'idCard', B);
    expect(s.getRow(b)!.status).toBe('valid');
    s.setCell(c, 'idCard', A.toLowerCase());
    expect(s.getRow(c)).toMatchObject({ status: 'duplicate', dup: '与第 2 行重复' });
    // Fixing the first occurrence's ID frees the second.
    s.setCell(a, 'idCard', '110105194912310021');
    expect(s.getRow(a)!.status).toBe('error');
    expect(s.getRow(c)).toMatchObject({ status: 'valid', dup: undefined });
    expect(s.validRows().map((r) => r.row)).toEqual([3, 4]);
  });

  it('keeps the gateway mark "already insured" until the ID card changes', () => {
    const s = new RosterStore(columns);
    s.load([{ row: 2, values: { name: '王五', idCard: A }, insured: '该人员已在保' }]);
    const [id] = s.ids();
    expect(s.getRow(id)!.status).toBe('duplicate');
    s.setCell(id, 'name', '王五六');
    expect(s.getRow(id)!.status).toBe('duplicate');
    s.setCell(id, 'idCard', B);
    expect(s.getRow(id)).toMatchObject({ status: 'valid', insured: undefined });
  });

  it("appends an upload's next pages: a later row repeating an earlier ID card is its duplicate; counts add up", () => {
    const s = new RosterStore(columns);
    s.load([
      { row: 2, values: { name: '王五', idCard: A } },
      { row: 3, values: { name: '张', idCard: B } },
    ]);
    let structure = 0;
    s.subscribeStructure(() => structure++);
    s.append([
      { row: 4, values: { name: '赵六', idCard: A.toLowerCase() } },
      { row: 5, values: { name: '钱七', idCard: B }, errors: { name: '这是模板中的示例行，请删除后重新上传' } },
    ]);
    expect(structure).toBe(1);
    expect(s.ids().map((id) => s.getRow(id)!.status)).toEqual(['valid', 'error', 'duplicate', 'error']);
    expect(s.getRow(s.ids()[2])!.dup).toBe('与第 2 行重复');
    const c = s.getCounts();
    expect(c).toEqual({ total: 4, valid: 1, errors: 2, duplicates: 1 });
    expect(c.valid + c.errors + c.duplicates).toBe(c.total);
  });

  it('knows whether the user changed the rows since they were loaded (an unedited upload is confirmed by its id)', () => {
    const s = store(3);
    expect(s.edited).toBe(false);
    s.append([{ row: 9, values: { name: '孙八', idCard: B } }]);
    expect(s.edited).toBe(false);
    s.setCell(s.ids()[0], 'name', '员工0'); // the same value: no change
    expect(s.edited).toBe(false);
    s.setCell(s.ids()[0], 'name', '员工零');
    expect(s.edited).toBe(true);
    s.load([{ row: 2, values: { name: '王五', idCard: A } }]);
    expect(s.edited).toBe(false);
    s.removeRow(s.ids()[0]);
    expect(s.edited).toBe(true);
    s.load([]);
    s.addRow();
    expect(s.edited).toBe(true);
  });
});
