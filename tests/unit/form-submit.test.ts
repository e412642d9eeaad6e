import { describe, expect, it } from 'vitest';
import { payloadOf } from '../../src/runtime/pages/formSubmit';
import type { FormSchema } from '../../src/schema/types';

describe('payloadOf', () => {
  it('drops confirmation inputs and Formily row bookkeeping keys, keeps every value the user entered', () => {
    const schema = { fields: [{ name: 'password' }, { name: 'confirm', confirmOf: 'password' }, { name: 'rows' }] } as unknown as FormSchema;
    const rows = [{ name: '王芳', idCard: '11010119900307001X', __DO_NOT_USE_THIS_PROPERTY_index__: 0 }];
    expect(payloadOf(schema, { password: 'a1b2c3d4', confirm: 'a1b2c3d4', rows })).toEqual({
      password: 'a1b2c3d4',
      rows: [{ name: '王芳', idCard: '11010119900307001X' }],
    });
    expect(rows[0]).toHaveProperty('__DO_NOT_USE_THIS_PROPERTY_index__'); // the form's own values are not changed
  });
});
