import { AppError } from './app-error';
import { assertStorableJson } from './storable-json';

function refusal(value: unknown, root = '', text?: string) {
  try {
    assertStorableJson(value, root, text);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).toBody();
  }
  throw new Error('expected a refusal');
}

describe('assertStorableJson', () => {
  it('accepts what every field can store, surrogate pairs and other control characters included', () => {
    expect(() => assertStorableJson({ name: 'Ünïcødé 😀 \t\n\u0001', n: [1.5, -0, 1e308], nested: { ok: [true, null, {}] } })).not.toThrow();
  });

  it.each([
    [{ name: 'a\u0000b' }, 'name', 'NUL'],
    [{ data: { title: 'x\ud800' } }, 'data.title', 'unpaired'],
    [{ data: { title: '\udc00x' } }, 'data.title', 'unpaired'],
    [{ data: { amount: JSON.parse('1e999') } }, 'data.amount', 'finite'],
    [{ data: { amount: -Infinity } }, 'data.amount', 'finite'],
    [{ rows: [{ data: {} }, { data: {} }, { data: {} }, { data: { amount: NaN } }] }, 'rows[3].data.amount', 'finite'],
    [{ fields: [{ name: 'ok' }, { name: 'ok' }, { options: { values: ['a', 'b\u0000'] } }] }, 'fields[2].options.values[1]', 'NUL'],
    [{ data: { 'bad\u0000key': 1 } }, 'data', 'property name'],
    ['\ud800', 'body', 'unpaired'],
  ])('refuses %j naming %s', (value, field, reason) => {
    expect(refusal(value)).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), details: { field, reason: expect.stringContaining(reason) } });
  });

  it('names paths under the given root', () => {
    expect(refusal({ or: [{ title: { contains: 'a\u0000' } }] }, 'filter').details).toEqual({ field: 'filter.or[0].title.contains', reason: expect.any(String) });
  });

  it('skips the string checks only when the JSON text has no \\u escape, and still checks numbers then', () => {
    const text = '{"name":"plain","n":1e999}';
    expect(refusal(JSON.parse(text), '', text).details).toEqual({ field: 'n', reason: expect.stringContaining('finite') });
    const escaped = '{"name":"a\\u0000"}';
    expect(refusal(JSON.parse(escaped), '', escaped).details).toEqual({ field: 'name', reason: expect.stringContaining('NUL') });
  });
});
