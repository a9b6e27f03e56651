import type { FieldType } from '@contracts';
import { AppError } from '@platform/errors';
import type { Field, FieldOptions } from '../fields/field';
import { AttachmentDraft } from '../attachments/attachment-entries';
import { InvalidValue, parseDateTime } from '@platform/row-filter';
import { normalizeValue, validateRowData } from './field-values';

function field(fieldType: FieldType, options: FieldOptions = {}, isRequired = false, slug = 'v'): Field {
  return { id: '00000000-0000-4000-8000-000000000001', name: slug, slug, fieldType, isRequired, options, column: 'f_x' };
}

const cases: Array<[FieldType, FieldOptions, Array<[unknown, unknown]>, unknown[]]> = [
  ['text', {}, [['hello', 'hello'], ['', ''], ['x'.repeat(10_000), 'x'.repeat(10_000)]], [1, true, ['a'], { a: 1 }, 'x'.repeat(10_001)]],
  ['long_text', {}, [['line 1\nline 2', 'line 1\nline 2'], ['y'.repeat(100_000), 'y'.repeat(100_000)]], [5, 'y'.repeat(100_001)]],
  ['number', {}, [[3.14159, 3.14159], [-7, -7], [0, 0]], ['5', NaN, Infinity, {}, true]],
  ['number', { precision: 2 }, [[1.005, 1.01], [-1.005, -1.01], [2, 2], [3.14159, 3.14]], ['1.5']],
  ['number', { precision: 0 }, [[2.5, 3], [-2.5, -3], [2.49, 2]], []],
  ['currency', { currency: 'EUR', precision: 2 }, [[19.999, 20], [10.125, 10.13], [-0.005, -0.01]], ['10.00', false, -Infinity]],
  ['date', {}, [['2024-02-29', '2024-02-29'], ['1999-12-31', '1999-12-31']], ['2023-02-29', '2024-13-01', '2024-04-31', '2024-1-01', '2024-01-01T00:00:00Z', 20240101, '0000-01-01']],
  [
    'datetime',
    {},
    [
      ['2024-05-01T12:30:00Z', '2024-05-01T12:30:00.000Z'],
      ['2024-05-01T12:30:00+02:00', '2024-05-01T10:30:00.000Z'],
      ['2024-05-01T00:15:00.123456-05:30', '2024-05-01T05:45:00.123Z'],
      ['2024-12-31T23:59:59.9Z', '2024-12-31T23:59:59.900Z'],
    ],
    ['2024-05-01T12:30:00', '2024-05-01', '2024-02-30T00:00:00Z', '2024-05-01T24:00:00Z', '2024-05-01T12:60:00Z', 'yesterday', 1714566600000, '2024-05-01T12:30:00+15:00'],
  ],
  ['checkbox', {}, [[true, true], [false, false]], ['true', 1, 0]],
  ['select', { values: ['open', 'closed'] }, [['open', 'open']], ['Open', 'other', 1, ['open']]],
  ['multi_select', { values: ['a', 'b', 'c'] }, [[['a', 'c'], ['a', 'c']], [[], []]], [['a', 'a'], ['d'], 'a', [1]]],
  ['email', {}, [['ada@example.com', 'ada@example.com'], ['Ada@Example.COM', 'ada@example.com'], ['first.last+tag@sub.example.org', 'first.last+tag@sub.example.org']], ['ada', 'ada@', '@example.com', 'a b@example.com', 7]],
  ['url', {}, [['https://example.com/a?b=c', 'https://example.com/a?b=c'], ['http://localhost:8080', 'http://localhost:8080']], ['example.com', 'ftp://example.com', 'javascript:alert(1)', 'https://', 42, 'https://exa mple.com']],
  ['phone', {}, [['+1 202-555-0143', '+12025550143'], ['+44 20 7183 8750', '+442071838750']], ['202-555-0143', '+1 555', 'phone', 12025550143]],
  ['phone', { default_country: 'GB' }, [['020 7183 8750', '+442071838750']], ['12']],
];

describe('normalizeValue', () => {
  for (const [type, options, valid, invalid] of cases) {
    describe(`${type} ${JSON.stringify(options)}`, () => {
      it.each(valid)('accepts %j as %j', (input, output) => {
        expect(normalizeValue(field(type, options), input)).toEqual(output);
      });
      if (invalid.length) {
        it.each(invalid.map((value) => [value]))('refuses %j', (input) => {
          expect(() => normalizeValue(field(type, options), input)).toThrow();
        });
      }
    });
  }

  describe('attachment', () => {
    const files = field('attachment');
    const id = '6f1c2a9e-3b4d-4c5e-8f60-718293a4b5c6';

    it('reads links, uploads and stored files into a draft that must be settled', () => {
      const link = { url: 'https://cdn.example.com/a.png', filename: 'a.png', size: 10, mime_type: 'image/png' };
      const draft = normalizeValue(files, [link, { url: 'https://cdn.example.com/b', filename: 'b' }, { upload_id: id.toUpperCase() }, { id, filename: 'f', url: 'https://x' }]);
      expect(draft).toBeInstanceOf(AttachmentDraft);
      expect((draft as AttachmentDraft).entries).toEqual([
        { kind: 'link', link },
        { kind: 'link', link: { url: 'https://cdn.example.com/b', filename: 'b' } },
        { kind: 'upload', uploadId: id },
        { kind: 'kept', id, filename: 'f', size: undefined, mime_type: undefined },
      ]);
    });

    it.each([
      [{ url: 'https://x.example', filename: 'x' }, ''],
      [[{ url: 'nope', filename: 'x' }], ''],
      [[{ url: 'https://x.example' }], ''],
      [[{ url: 'https://x.example', filename: 'x', size: -1 }], ''],
      [[{ url: 'https://x.example', filename: 'x', extra: 1 }], ''],
      [[{ url: 'https://x.example', filename: 'x', mime_type: 'png' }], ''],
      [['https://x.example'], ''],
      [Array.from({ length: 21 }, () => ({ url: 'https://x.example', filename: 'x' })), ''],
      [[{ url: 'https://x.example', filename: 'x' }, { upload_id: 'nope' }], '[1]'],
      [[{ upload_id: id, filename: 'x' }], '[0]'],
      [[{ id: 'nope' }], '[0]'],
      [[{ id, size: '1' }], '[0]'],
      [[{ id, owner: 'x' }], '[0]'],
    ])('refuses %j, naming the entry %p', (value, at) => {
      expect(() => normalizeValue(files, value)).toThrow(InvalidValue);
      try {
        normalizeValue(files, value);
      } catch (error) {
        expect((error as InvalidValue).at).toBe(at);
      }
    });
  });

  it('normalizes datetimes across a date boundary', () => {
    expect(parseDateTime('2024-03-01T01:00:00+03:00')).toBe('2024-02-29T22:00:00.000Z');
  });

  it('counts text length in characters, so a character outside the BMP counts once', () => {
    const emoji = '\u{1F600}';
    expect(normalizeValue(field('text'), emoji.repeat(10_000))).toHaveLength(20_000);
    expect(() => normalizeValue(field('text'), emoji.repeat(10_000) + 'x')).toThrow(InvalidValue);
    expect(() => normalizeValue(field('text'), 'x'.repeat(10_001))).toThrow(InvalidValue);
  });

  it('keeps the years 1 to 99 as sent (Date.UTC would read them as 1900-1999)', () => {
    expect(parseDateTime('0050-06-15T12:00:00Z')).toBe('0050-06-15T12:00:00.000Z');
    expect(parseDateTime('0001-01-01T00:00:00Z')).toBe('0001-01-01T00:00:00.000Z');
    expect(parseDateTime('0004-02-29T23:30:00-01:00')).toBe('0004-03-01T00:30:00.000Z');
    expect(parseDateTime('0100-01-01T00:00:00Z')).toBe('0100-01-01T00:00:00.000Z');
    expect(() => parseDateTime('0001-01-01T00:00:00+01:00')).toThrow(InvalidValue);
    expect(() => parseDateTime('0003-02-29T00:00:00Z')).toThrow(InvalidValue);
  });
});

describe('validateRowData', () => {
  const fields = [field('text', {}, true, 'name'), field('number', {}, false, 'age'), field('select', { values: ['x'] }, false, 'kind')];

  function errorOf(run: () => unknown): { field: string; reason: string } {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      return (error as AppError).details as { field: string; reason: string };
    }
    throw new Error('expected a validation error');
  }

  it('answers normalized values keyed by field', () => {
    const values = validateRowData(fields, { name: 'Ada', age: 36, kind: null }, 'create');
    expect([...values].map(([f, v]) => [f.slug, v])).toEqual([['name', 'Ada'], ['age', 36], ['kind', null]]);
  });

  it('requires required fields on create, non-empty', () => {
    expect(errorOf(() => validateRowData(fields, { age: 1 }, 'create')).field).toBe('data.name');
    expect(errorOf(() => validateRowData(fields, { name: '' }, 'create')).field).toBe('data.name');
  });

  it('lets an update leave a required field out but not clear it', () => {
    expect(validateRowData(fields, { age: 2 }, 'update').size).toBe(1);
    expect(errorOf(() => validateRowData(fields, { name: null }, 'update')).field).toBe('data.name');
  });

  it('names unknown keys and wrong values by data.<slug>', () => {
    expect(errorOf(() => validateRowData(fields, { name: 'a', nope: 1 }, 'create')).field).toBe('data.nope');
    expect(errorOf(() => validateRowData(fields, { name: 'a', age: 'old' }, 'create'))).toEqual({ field: 'data.age', reason: 'must be a finite number' });
    expect(errorOf(() => validateRowData(fields, { name: 'a', kind: 'y' }, 'create')).field).toBe('data.kind');
  });
});
