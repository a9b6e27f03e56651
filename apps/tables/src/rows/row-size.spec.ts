import { ROW_DATA_MAX_BYTES } from '@contracts';
import { AppError } from '@platform/errors';
import type { Field } from '../fields/field';
import { checkRowSize, checkRowValuesSize } from './row-size';

function longText(slug: string): Field {
  return { id: '00000000-0000-4000-8000-000000000001', name: slug, slug, fieldType: 'long_text', isRequired: false, options: {}, column: `f_${slug}` };
}

/** `{"a":"xxx…"}` of exactly `bytes` bytes as JSON. */
function rowOf(bytes: number): Record<string, string> {
  return { a: 'x'.repeat(bytes - JSON.stringify({ a: '' }).length) };
}

function refusal(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).toBody();
  }
  throw new Error('expected a refusal');
}

describe('checkRowSize', () => {
  it('takes a row of exactly the limit and refuses one byte more, naming data', () => {
    expect(() => checkRowSize(rowOf(ROW_DATA_MAX_BYTES))).not.toThrow();
    expect(refusal(() => checkRowSize(rowOf(ROW_DATA_MAX_BYTES + 1)))).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'data' } });
  });

  it('counts UTF-8 bytes, not characters', () => {
    // 3 bytes each: over the limit in bytes, at a third of it in characters.
    const row = { a: '€'.repeat(Math.ceil(ROW_DATA_MAX_BYTES / 3)) };
    expect(JSON.stringify(row).length).toBeLessThan(ROW_DATA_MAX_BYTES);
    expect(refusal(() => checkRowSize(row))).toMatchObject({ details: { field: 'data' } });
  });

  it('names the path it is given, as a batch item', () => {
    expect(refusal(() => checkRowSize(rowOf(ROW_DATA_MAX_BYTES + 1), 'rows[3].data'))).toMatchObject({ details: { field: 'rows[3].data' } });
  });
});

describe('checkRowValuesSize', () => {
  const fields = [longText('a'), longText('b')];

  it('weighs the whole row, a field without a value as null', () => {
    // {"a":"…","b":null}: the null of b counts.
    const room = ROW_DATA_MAX_BYTES - JSON.stringify({ a: '', b: null }).length;
    expect(() => checkRowValuesSize(fields, new Map([[fields[0], 'x'.repeat(room)]]))).not.toThrow();
    expect(refusal(() => checkRowValuesSize(fields, new Map([[fields[0], 'x'.repeat(room + 1)]]), 'rows[0].data'))).toMatchObject({
      details: { field: 'rows[0].data' },
    });
  });

  it('refuses a row one byte over the limit whatever its values are made of (the bound that skips measuring never falls short)', () => {
    const multi: Field = { ...longText('m'), id: '00000000-0000-4000-8000-000000000002', fieldType: 'multi_select', column: 'f_m' };
    const number: Field = { ...longText('n'), id: '00000000-0000-4000-8000-000000000003', fieldType: 'number', column: 'f_n' };
    const all = [...fields, multi, number];
    // Written as \u0001 (6 bytes), as \" (2), as € (3 bytes): each fills the row to exactly the limit, then one byte more.
    for (const unit of ['\u0001', '"', '€', 'x']) {
      const base = { a: '', b: 'yy', m: ['p', 'q'], n: -2.2250738585072014e-308 };
      const unitBytes = Buffer.byteLength(JSON.stringify(unit)) - 2;
      const room = ROW_DATA_MAX_BYTES - Buffer.byteLength(JSON.stringify(base));
      const fill = unit.repeat(Math.floor(room / unitBytes));
      const pad = 'x'.repeat(room - fill.length * unitBytes);
      const values = (extra: string) =>
        new Map<Field, unknown>([
          [all[0], fill + pad + extra],
          [all[1], base.b],
          [multi, base.m],
          [number, base.n],
        ]);
      expect(Buffer.byteLength(JSON.stringify({ ...base, a: fill + pad }))).toBe(ROW_DATA_MAX_BYTES);
      expect(() => checkRowValuesSize(all, values(''))).not.toThrow();
      expect(refusal(() => checkRowValuesSize(all, values('x')))).toMatchObject({ details: { field: 'data' } });
    }
  });

  it('measures a row whose values are not plain (files as objects) as written', () => {
    const files: Field = { ...longText('f'), fieldType: 'attachment', column: 'f_f' };
    const big = [{ id: 'x'.repeat(ROW_DATA_MAX_BYTES) }];
    expect(refusal(() => checkRowValuesSize([files], new Map([[files, big]])))).toMatchObject({ details: { field: 'data' } });
    expect(() => checkRowValuesSize([files], new Map([[files, [{ id: 'small' }]]]))).not.toThrow();
  });
});
