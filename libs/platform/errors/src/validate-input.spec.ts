import * as contracts from '@contracts';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { AppError } from './app-error';
import { validateInput } from './validate-input';

class Sample {
  @IsString()
  name!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  page: number = 1;
}

function failure(value: unknown): AppError {
  try {
    validateInput(Sample, value);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a validation error');
}

describe('validateInput', () => {
  it('answers an instance of the contract class, keeping its defaults', () => {
    const sample = validateInput(Sample, { name: 'x' });
    expect(sample).toBeInstanceOf(Sample);
    expect(sample).toEqual({ name: 'x', page: 1 });
  });

  it.each([null, [], 'text', 12])('refuses %j as not a JSON object', (value) => {
    expect(failure(value).toBody()).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), details: { field: 'body', reason: 'must be a JSON object' } });
  });

  it('names an unknown property and a bad value by their field', () => {
    expect(failure({ name: 'x', extra: 1 }).details).toEqual({ field: 'extra', reason: expect.stringContaining('should not exist') });
    expect(failure({ name: 'x', page: 0 }).details).toEqual({ field: 'page', reason: expect.any(String) });
  });
});

describe('validateInput on hostile shapes', () => {
  const contractClasses = Object.values(contracts).filter(
    (value): value is new () => object => typeof value === 'function' && /^[A-Z]\w*(Body|Query|Params|Input)$/.test(value.name),
  );
  const keys = ['constructor', '__proto__', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__', 'then', 'length', '0'];
  const values: unknown[] = [1, 'x', null, true, [], {}, [{}], [[]], { constructor: 1 }, { constructor: {} }, { constructor: 'x' }, { constructor: [] }, { toString: 1 }, { length: 5 }, [{ constructor: 1 }]];
  const properties = ['data', 'fields', 'options', 'schedules', 'events', 'name', 'remove_fields', 'event_type', 'url', 'page', 'unknown'];

  function shapes(): unknown[] {
    const out: unknown[] = [];
    for (const key of keys) for (const value of values) out.push(JSON.parse(JSON.stringify({ [key]: value })));
    for (const property of properties) {
      for (const value of values) {
        out.push({ [property]: value });
        out.push({ [property]: [value] });
        out.push({ name: 'x', [property]: [{ name: 'y', field_type: 'text', options: value, day_of_week: 1 }] });
        out.push({ [property]: { nested: value } });
      }
    }
    out.push(JSON.parse('{"__proto__": {"admin": true}}'), JSON.parse('{"data": {"__proto__": {"x": 1}}}'));
    out.push(JSON.parse('['.repeat(30) + ']'.repeat(30)), { data: JSON.parse('{"a":'.repeat(30) + '1' + '}'.repeat(30)) });
    return out;
  }

  it('answers an instance or a VALIDATION_ERROR for every contract class, never anything else', () => {
    expect(contractClasses.length).toBeGreaterThan(10);
    const thrown: string[] = [];
    for (const type of contractClasses) {
      for (const shape of shapes()) {
        try {
          validateInput(type, shape);
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== 'VALIDATION_ERROR') thrown.push(`${type.name} ${JSON.stringify(shape)}: ${error}`);
        }
      }
    }
    expect(thrown).toEqual([]);
  });

  it('keeps free-form JSON exactly as sent, keys named like Object members included', () => {
    const data = JSON.parse('{"constructor": "a", "prototype": "b", "tostring": "c", "toString": "d", "nested": {"constructor": {"x": [1]}}}');
    const row = validateInput(contracts.RowBody, { data });
    expect(row.data).toBe(data);
    const table = validateInput(contracts.CreateTableBody, { name: 'T', fields: [{ name: 'Constructor', field_type: 'select', options: { values: ['a'], constructor: 1 } }] });
    expect(table.fields[0]).toBeInstanceOf(contracts.FieldDefinitionInput);
    expect(table.fields[0].options).toEqual({ values: ['a'], constructor: 1 });
  });

  it('names a key that is an Object member outside free-form JSON as an unknown property', () => {
    expect(failure({ name: 'x', constructor: { name: 1 } }).details).toEqual({ field: 'constructor', reason: 'is not a known property' });
    expect(failure({ name: 'x', hasOwnProperty: 1 }).details).toEqual({ field: 'hasOwnProperty', reason: 'is not a known property' });
    expect(failure({ name: 'x', page: { toString: 1 } }).details).toEqual({ field: 'page.toString', reason: 'is not a known property' });
    let error: AppError | undefined;
    try {
      validateInput(contracts.CreateTableBody, { name: 'T', fields: [{ name: 'a', field_type: 'text' }, { name: { constructor: 1 }, field_type: 'text' }] });
    } catch (caught) {
      error = caught as AppError;
    }
    expect(error?.details).toEqual({ field: 'fields[1].name.constructor', reason: 'is not a known property' });
  });

  it('refuses a list where a list of contract objects wants an object, naming the item', () => {
    const slot = { day_of_week: 1, start_time: '09:00:00', end_time: '10:00:00' };
    const cases: Array<[new () => object, unknown, string]> = [
      [contracts.ReplaceAvailabilityBody, { schedules: [[]] }, 'schedules[0]'],
      [contracts.ReplaceAvailabilityBody, { schedules: [slot, [slot]] }, 'schedules[1]'],
      [contracts.ReplaceAvailabilityBody, { schedules: [], overrides: [[]] }, 'overrides[0]'],
      [contracts.CreateTableBody, { name: 'T', fields: [[]] }, 'fields[0]'],
    ];
    for (const [type, body, field] of cases) {
      let error: AppError | undefined;
      try {
        validateInput(type, body);
      } catch (caught) {
        error = caught as AppError;
      }
      expect(error?.toBody()).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), details: { field, reason: 'must be an object' } });
    }
    // Lists of plain values, and free-form JSON, may hold lists.
    expect(validateInput(contracts.RowBody, { data: { matrix: [[1, 2], []] } }).data).toEqual({ matrix: [[1, 2], []] });
  });
});

describe('the reason a VALIDATION_ERROR gives', () => {
  function reasonFor(type: new () => object, value: unknown): unknown {
    try {
      validateInput(type, value);
    } catch (error) {
      return (error as AppError).details;
    }
    throw new Error('expected a validation error');
  }

  it('is the check written first when several fail: the type, not a bound that assumes it', () => {
    expect(reasonFor(contracts.PageQuery, { limit: 'abc' })).toEqual({ field: 'limit', reason: 'must be an integer number' });
    expect(reasonFor(contracts.CreateWebhookBody, { name: 1, url: 'https://a.example/b', events: ['row.created'] })).toEqual({ field: 'name', reason: 'must be a string' });
    expect(reasonFor(contracts.CreateWebhookBody, { name: 'n', url: 'https://a.example/b', events: 'row.created' })).toEqual({ field: 'events', reason: 'must be an array' });
    expect(reasonFor(contracts.ReplaceAvailabilityBody, { schedules: [{ day_of_week: '1', start_time: '09:00:00', end_time: '10:00:00' }] })).toEqual({
      field: 'schedules[0].day_of_week',
      reason: 'must be an integer number',
    });
  });
});

describe('integer query parameters', () => {
  it('take only the plain decimal form; any other spelling of a number is refused', () => {
    expect(validateInput(contracts.PageQuery, { page: '2', limit: '10' })).toMatchObject({ page: 2, limit: 10 });
    expect(validateInput(contracts.RowListQuery, { page: '3' })).toMatchObject({ page: 3, limit: 50 });
    for (const limit of ['0x10', '1e1', '10.0', '+10', ' 10', '010', '', ['1', '2']]) {
      let details: unknown;
      try {
        validateInput(contracts.PageQuery, { limit });
      } catch (error) {
        details = (error as AppError).details;
      }
      expect(details).toEqual({ field: 'limit', reason: 'must be an integer number' });
    }
  });
});
