/**
 * The text rule (no control, zero-width, invisible-format or bidi-override characters; line breaks only
 * in multi-line text) is one function shared by the browser (Formily validators) and the gateway (the
 * Ajv keyword x-chars): both refuse the same values with the same message.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchemaFiles } from '../../src/schema/load-node';
import { formFieldOf } from '../../src/schema/resolve';
import { fieldValidator } from '../../src/runtime/formSchema';
import { forbiddenCharacter } from '../../src/shared/checks';
import { createEntityAjv, validateWithAjv } from '../../src/shared/entity/ajv';
import { toJsonSchema } from '../../src/shared/entity/json-schema';
import { buildEntityRegistry } from '../../src/shared/entity/registry';
import { checkField, inputFields, normalizePayload } from '../../src/shared/entity/rules';

const reg = buildEntityRegistry(loadSchemaFiles(resolve(import.meta.dirname, '../..')).files);
const ajv = createEntityAjv();
const TEXT_TYPES = new Set(['string', 'text']);

describe('forbiddenCharacter', () => {
  it('names the first control, zero-width, invisible or bidi character; line breaks only in a line', () => {
    expect(forbiddenCharacter('上海鑫达 人力 (A-1)', false)).toBeUndefined();
    expect(forbiddenCharacter('第一行\n第二行\t缩进', true)).toBeUndefined();
    expect(forbiddenCharacter('第一行\n第二行', false)).toBe('U+000A');
    for (const [s, cp] of [['a\u0000b', 'U+0000'], ['a\u200bb', 'U+200B'], ['a\u200db', 'U+200D'], ['a\u202eb', 'U+202E'], ['a\u2066b', 'U+2066'], ['a\ufeffb', 'U+FEFF'], ['a\u00adb', 'U+00AD'], ['a\u0085b', 'U+0085'], ['a\u061cb', 'U+061C']]) {
      expect(forbiddenCharacter(s, true), s).toBe(cp);
    }
  });
});

describe('every text field of every entity: browser and gateway refuse the same characters with the same message', () => {
  for (const e of Object.values(reg.entities)) {
    for (const [key, f] of Object.entries(inputFields(e))) {
      if (!TEXT_TYPES.has(f.type)) continue;
      it(`${e.name}.${key} (${f.type})`, () => {
        const formily = fieldValidator(formFieldOf(key, f));
        const schema = toJsonSchema(e, { mode: 'create', fields: [key] });
        for (const v of ['张\u200b三丰', '张\u202e三丰', '张\u0000三丰', '张\n三丰', '张三丰']) {
          const browser = checkField(f, v);
          const gateway = validateWithAjv(ajv, schema, inputFields(e), normalizePayload({ [key]: v })).find((x) => x.field === key)?.message;
          expect(gateway, JSON.stringify(v)).toBe(browser);
          expect(formily(v), JSON.stringify(v)).toBe(browser ?? '');
          const refused = browser === `${f.label}不能包含控制字符或不可见字符`;
          const expectRefused = v !== '张三丰' && !(f.type === 'text' && v === '张\n三丰');
          // A shorter limit or a pattern may speak first; the character rule never lets such a value through.
          if (expectRefused) expect(browser, JSON.stringify(v)).toBeDefined();
          if (refused) expect(expectRefused).toBe(true);
        }
      });
    }
  }
});
