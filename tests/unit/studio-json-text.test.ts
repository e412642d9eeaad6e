/**
 * The studio writes schema files the way a person would (issue 24): an untouched file saves byte for
 * byte, and a set of edits gives exactly the file a developer would have written for them (the
 * committed fixtures under tests/fixtures/studio/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editJsonText, inline } from '../../src/server/studio/json-text';

const ROOT = resolve(import.meta.dirname, '../..');
const FIX = join(ROOT, 'tests/fixtures/studio');
const read = (f: string) => readFileSync(join(FIX, f), 'utf8');

function schemaFiles(dir = join(ROOT, 'schemas')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? schemaFiles(join(dir, d.name)) : d.name.endsWith('.json') ? [join(dir, d.name)] : []));
}

const EMPLOYEE_NO = { type: 'string', label: '工号', maxLength: 20, search: 'contains' };

describe('studio JSON text edits', () => {
  it('loading and saving an untouched file changes nothing, for every schema file', () => {
    for (const file of schemaFiles()) {
      const text = readFileSync(file, 'utf8');
      expect(editJsonText(text, []), file).toBe(text);
    }
  });

  it('adding 工号 gives the file a developer writes: one line after the last field', () => {
    const out = editJsonText(read('insured-person.json'), [{ op: 'set', path: ['fields', 'employeeNo'], value: EMPLOYEE_NO }]);
    expect(out).toBe(read('insured-person.add-employee-no.json'));
  });

  it('renaming it to 员工编号 (staffNo) changes only its line', () => {
    const out = editJsonText(read('insured-person.add-employee-no.json'), [
      { op: 'rename', path: ['fields', 'employeeNo'], to: 'staffNo' },
      { op: 'set', path: ['fields', 'staffNo'], value: { ...EMPLOYEE_NO, label: '员工编号' } },
    ]);
    expect(out).toBe(read('insured-person.rename-staff-no.json'));
  });

  it('removing and re-adding a field, and moving it back, round-trips to the original text', () => {
    const base = read('insured-person.add-employee-no.json');
    const removed = editJsonText(base, [{ op: 'remove', path: ['fields', 'employeeNo'] }]);
    expect(removed).toBe(read('insured-person.json'));
    const moved = editJsonText(base, [{ op: 'move', path: ['fields', 'employeeNo'], before: 'name' }]);
    expect(JSON.parse(moved).fields).toEqual(JSON.parse(base).fields);
    expect(Object.keys(JSON.parse(moved).fields)[0]).toBe('employeeNo');
    expect(editJsonText(moved, [{ op: 'move', path: ['fields', 'employeeNo'] }])).toBe(base);
  });

  it('a field with options keeps the hybrid style: scalar keys on one line, one option per line', () => {
    const kind = { type: 'enum', label: '用工类型', search: 'exact', options: [{ value: 'full', label: '全职' }, { value: 'part', label: '兼职' }, { value: 'flexible', label: '灵活用工，按天结算的骑手和配送员' }] };
    const out = editJsonText(read('insured-person.json'), [{ op: 'set', path: ['fields', 'workKind'], value: kind }]);
    expect(out).toContain(
      [
        '    "workKind": {',
        '      "type": "enum", "label": "用工类型", "search": "exact",',
        '      "options": [',
        '        { "value": "full", "label": "全职" },',
        '        { "value": "part", "label": "兼职" },',
        '        { "value": "flexible", "label": "灵活用工，按天结算的骑手和配送员" }',
        '      ]',
        '    }',
        '  }',
        '}',
      ].join('\n'),
    );
    expect(JSON.parse(out).fields.workKind).toEqual(kind);
  });

  it('page files stay expanded JSON: a column inserted into a table is one line of its own', () => {
    const text = readFileSync(join(ROOT, 'schemas/tables/insure-records.json'), 'utf8');
    const out = editJsonText(text, [{ op: 'insert', path: ['columns'], value: 'employeeNo', index: 1 }]);
    expect(out).toBe(`${JSON.stringify({ ...JSON.parse(text), columns: [JSON.parse(text).columns[0], 'employeeNo', ...JSON.parse(text).columns.slice(1)] }, null, 2)}\n`);
  });

  it('inline rendering puts spaces inside braces, like the entity files', () => {
    expect(inline({ a: 1, b: [1, 2], c: { d: 'x' }, e: [] })).toBe('{ "a": 1, "b": [1, 2], "c": { "d": "x" }, "e": [] }');
  });
});
