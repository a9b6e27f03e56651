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
});
