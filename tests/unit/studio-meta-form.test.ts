/**
 * The studio's field editor comes from the meta schema, and its edits are the ones a person makes:
 * every key of a field definition has an input; every field of every entity file survives the editor
 * unchanged; an edit through it, applied to the file text, gives the committed fixture byte for byte.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fieldEditorInputs, fromEditorValues, toEditorValues, type MetaNode } from '../../src/runtime/studio/metaForm';
import { fieldEdits, moveEdit } from '../../src/runtime/studio/draft';
import { editJsonText } from '../../src/server/studio/json-text';

const REPO = resolve(import.meta.dirname, '../..');
const read = (f: string) => readFileSync(join(REPO, f), 'utf8');
const metas = Object.fromEntries(readdirSync(join(REPO, 'schemas/meta')).map((f) => [`schemas/meta/${f}`, JSON.parse(read(`schemas/meta/${f}`))])) as Record<string, MetaNode>;
const inputs = fieldEditorInputs(metas);
const fixture = (f: string) => read(`tests/fixtures/studio/${f}`);

describe('the field editor from the meta schema', () => {
  it('has an input for every key of a field definition, in the meta order, after the name', () => {
    const keys = Object.keys(metas['schemas/meta/entity.schema.json'].definitions!.field.properties!);
    expect(inputs[0].path).toEqual(['__name']);
    expect([...new Set(inputs.slice(1).map((i) => i.path[0]))]).toEqual(keys);
    expect(inputs.find((i) => i.path[0] === 'type')!.form.options!.map((o) => o.label)).toContain('金额（元）（money）');
    expect(inputs.filter((i) => i.path[0] === 'messages').map((i) => i.path[1])).toContain('maxLength');
    expect(inputs.find((i) => i.path[0] === 'options')!.form.type).toBe('rows');
  });

  it('shows a key only for the types the meta allows it for', () => {
    const shownFor = (k: string) => inputs.find((i) => i.path[0] === k)!.form.visibleWhen?.in;
    expect(shownFor('options')).toEqual(['enum']);
    expect(shownFor('items')).toEqual(['array']);
    expect(shownFor('entity')).toEqual(['ref']);
    expect(shownFor('label')).toBeUndefined();
  });

  it('keeps every field of every entity file as it is (through the editor and back)', () => {
    let checked = 0;
    for (const f of readdirSync(join(REPO, 'schemas/entities'))) {
      for (const [name, def] of Object.entries(JSON.parse(read(`schemas/entities/${f}`)).fields as Record<string, unknown>)) {
        if (typeof def !== 'object') continue;
        const back = fromEditorValues(inputs, toEditorValues(inputs, name, def as Record<string, unknown>));
        const sameDefaults = Object.fromEntries(Object.entries(def as Record<string, unknown>).filter(([k, v]) => !(v === false && inputs.find((i) => i.path[0] === k)?.default === false)));
        expect(back, `${f} ${name}`).toEqual({ name, def: sameDefaults });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});

describe('edits as a person makes them', () => {
  const base = fixture('insured-person.json');
  const added = fixture('insured-person.add-employee-no.json');
  const values = { __name: 'employeeNo', type: 'string', label: '工号', maxLength: 20, search: 'contains', required: false };

  it('a new field from the editor gives the add fixture', () => {
    expect(editJsonText(base, fieldEdits(undefined, fromEditorValues(inputs, values)))).toBe(added);
  });

  it('a rename with a new label gives the rename fixture', () => {
    const from = { name: 'employeeNo', def: JSON.parse(added).fields.employeeNo };
    const to = fromEditorValues(inputs, { ...toEditorValues(inputs, from.name, from.def), __name: 'staffNo', label: '员工编号' });
    expect(editJsonText(added, fieldEdits(from, to))).toBe(fixture('insured-person.rename-staff-no.json'));
  });

  it('moving a field up and back down leaves the file as it was', () => {
    const order = Object.keys(JSON.parse(base).fields);
    const up = editJsonText(base, [moveEdit(order, 'phone', -1)!]);
    expect(Object.keys(JSON.parse(up).fields).slice(0, 3)).toEqual(['name', 'phone', 'idCard']);
    const moved = Object.keys(JSON.parse(up).fields);
    expect(editJsonText(up, [moveEdit(moved, 'phone', 1)!])).toBe(base);
  });
});
