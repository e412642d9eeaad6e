import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { buildEntityRegistry } from '../../src/shared/entity/registry.ts';
import { loadSchemaFiles } from '../../src/schema/load-node.ts';
import { createEntityAjv, mapAjvErrors } from '../../src/shared/entity/ajv.ts';
import { toJsonSchema } from '../../src/shared/entity/json-schema.ts';
import { inputFields } from '../../src/shared/entity/rules.ts';
import { slicedBodyValidator } from '../../src/server/routes/sliced-validation.ts';
import { SLICE_ROWS } from '../../src/server/util.ts';
import { makeIdCard } from '../id-card.ts';

const roster = buildEntityRegistry(loadSchemaFiles(resolve(__dirname, '../..')).files).get('roster-submit');
const fields = inputFields(roster);
const schema = toJsonSchema(roster, { mode: 'create' });
const ajv = createEntityAjv({ today: () => '2026-01-01' });

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: '张伟', idCard: makeIdCard('320506', `${1980 + Math.floor(i / 1000)}0101`, i % 1000), phone: '13900000000' }));

describe('a long roster is checked in slices of the event loop (src/server/routes/sliced-validation.ts)', () => {
  it('answers a body of more than SLICE_ROWS rows with the errors of the whole schema, rows and fields alike', async () => {
    const body = { planName: '险'.repeat(101), startDate: '2026-02-01', rows: rows(2 * SLICE_ROWS + 500) };
    body.rows[3].idCard = '110101199001011234';
    body.rows[1800].name = '';
    body.rows[2400].idCard = body.rows[7].idCard; // a repeated ID number: the array's own x-unique-by
    const validate = slicedBodyValidator(ajv, schema);
    let turns = 0;
    let on = true;
    const tick = () => {
      turns++;
      if (on) setImmediate(tick);
    };
    setImmediate(tick);
    const result = validate(body);
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toBe(false);
    on = false;
    // Other work ran between the slices.
    expect(turns).toBeGreaterThanOrEqual(3);
    const sliced = mapAjvErrors(fields, validate.errors);
    const whole = ajv.compile(schema);
    expect(whole(body)).toBe(false);
    const expected = mapAjvErrors(fields, whole.errors);
    expect(sliced).toEqual(expected);
    expect(sliced.map((e) => e.field)).toEqual(['planName', 'rows[3].idCard', 'rows[1800].name', 'rows[2400].idCard']);
  });

  it('passes a long valid body, and checks a short one at once with the whole schema', async () => {
    const validate = slicedBodyValidator(ajv, schema);
    expect(await validate({ planName: '雇主责任险', startDate: '2026-02-01', rows: rows(SLICE_ROWS + 1) })).toBe(true);
    expect(validate.errors).toBeNull();
    const short = validate({ planName: '雇主责任险', startDate: '2026-02-01', rows: [{ name: '张伟', idCard: '110101199001011234' }] });
    expect(short).toBe(false);
    expect(mapAjvErrors(fields, validate.errors)).toEqual([{ field: 'rows[0].idCard', message: expect.stringContaining('身份证号') }]);
  });
});
