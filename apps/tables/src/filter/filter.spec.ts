import type { FieldType } from '@contracts';
import { AppError } from '@platform/errors';
import type { Field, FieldOptions } from '../fields/field';
import { RowOrder } from '../rows/row-sort';
import { compileFilter } from './filter-compiler';
import { MAX_FILTER_CONDITIONS, parseFilter } from '@platform/row-filter';
import { SqlParameters } from './sql-parameters';

let counter = 0;
function field(slug: string, fieldType: FieldType, options: FieldOptions = {}): Field {
  counter += 1;
  const hex = counter.toString(16).padStart(32, '0');
  return { id: hex, name: slug, slug, fieldType, isRequired: false, options, column: `f_${slug}` };
}

const fields = [
  field('name', 'text'),
  field('age', 'number'),
  field('price', 'currency', { currency: 'USD', precision: 2 }),
  field('born', 'date'),
  field('seen', 'datetime'),
  field('ok', 'checkbox'),
  field('status', 'select', { values: ['open', 'closed'] }),
  field('tags', 'multi_select', { values: ['a', 'b'] }),
  field('files', 'attachment'),
  field('mail', 'email'),
];

function compile(filter: unknown): { sql: string; values: unknown[] } {
  const node = parseFilter(JSON.stringify(filter), fields);
  const params = new SqlParameters();
  return { sql: node ? compileFilter(node, params) : '', values: params.values };
}

function rejection(filter: unknown | string): { field: string; reason: string } {
  try {
    parseFilter(typeof filter === 'string' ? filter : JSON.stringify(filter), fields);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION_ERROR');
    return (error as AppError).details as { field: string; reason: string };
  }
  throw new Error('expected a validation error');
}

describe('parseFilter + compileFilter', () => {
  it('treats a bare value as equality with a bind parameter', () => {
    expect(compile({ status: 'open' })).toEqual({ sql: '"f_status" = $1', values: ['open'] });
  });

  it('ANDs several keys and several operators', () => {
    expect(compile({ age: { gte: 18, lt: 65 }, ok: true })).toEqual({
      sql: '("f_age" >= $1 AND "f_age" < $2 AND "f_ok" = $3)',
      values: [18, 65, true],
    });
  });

  it('nests and/or', () => {
    const { sql, values } = compile({ or: [{ status: 'open' }, { and: [{ age: { gt: 1 } }, { name: { contains: 'x' } }] }] });
    expect(sql).toBe('("f_status" = $1 OR ("f_age" > $2 AND "f_name" ILIKE $3))');
    expect(values).toEqual(['open', 1, '%x%']);
  });

  it('escapes LIKE wildcards and keeps SQL out of the text', () => {
    const { sql, values } = compile({ name: { starts_with: "50%_'; DROP TABLE x; --" } });
    expect(sql).toBe('"f_name" ILIKE $1');
    expect(values).toEqual(["50\\%\\_'; DROP TABLE x; --%"]);
  });

  it.each([
    [{ name: { ne: 'a' } }, '"f_name" IS DISTINCT FROM $1'],
    [{ name: { in: ['a', 'b'] } }, '"f_name" = ANY($1)'],
    [{ name: { nin: ['a'] } }, '("f_name" IS NULL OR NOT ("f_name" = ANY($1)))'],
    [{ name: { is_empty: true } }, `("f_name" IS NULL OR "f_name" = '')`],
    [{ age: { is_empty: false } }, 'NOT "f_age" IS NULL'],
    [{ tags: { contains: 'a' } }, '$1::text = ANY("f_tags")'],
    [{ tags: ['a', 'b'] }, '("f_tags" @> $1::text[] AND "f_tags" <@ $2::text[])'],
    [{ tags: { in: ['a'] } }, '"f_tags" && $1::text[]'],
    [{ files: { is_empty: true } }, '("f_files" IS NULL OR jsonb_array_length("f_files") = 0)'],
    [{ created_at: { gte: '2024-01-01T00:00:00+01:00' } }, '"created_at" >= $1'],
    [{ status: null }, '"f_status" IS NULL'],
  ])('%j -> %s', (filter, sql) => {
    expect(compile(filter).sql).toBe(sql);
  });

  it('normalizes date and datetime operands', () => {
    expect(compile({ seen: { lt: '2024-01-01T01:00:00+01:00' } }).values).toEqual(['2024-01-01T00:00:00.000Z']);
    expect(compile({ born: { gte: '2000-02-29' } }).values).toEqual(['2000-02-29']);
  });

  it('answers nothing for an empty filter', () => {
    expect(parseFilter('{}', fields)).toBeUndefined();
    expect(parseFilter(undefined, fields)).toBeUndefined();
  });

  it.each([
    ['not json', 'filter'],
    ['[1]', 'filter'],
    ['"x"', 'filter'],
    [{ nope: 1 }, 'filter.nope'],
    [{ age: { between: 1 } }, 'filter.age.between'],
    [{ age: '18' }, 'filter.age'],
    [{ age: { gt: 'x' } }, 'filter.age.gt'],
    [{ ok: { gt: true } }, 'filter.ok.gt'],
    [{ born: { lt: '2023-02-30' } }, 'filter.born.lt'],
    [{ name: { in: 'a' } }, 'filter.name.in'],
    [{ name: { in: [] } }, 'filter.name.in'],
    [{ name: { in: ['a', 1] } }, 'filter.name.in[1]'],
    [{ name: { is_empty: 'yes' } }, 'filter.name.is_empty'],
    [{ age: { contains: 1 } }, 'filter.age.contains'],
    [{ files: 'x' }, 'filter.files'],
    [{ name: {} }, 'filter.name'],
    [{ and: {} }, 'filter.and'],
    [{ or: [] }, 'filter.or'],
    [{ and: [{ or: [{ nope: 1 }] }] }, 'filter.and[0].or[0].nope'],
    ['{"__proto__": {"x": 1}}', 'filter'],
  ])('refuses %j naming %s', (filter, path) => {
    expect(rejection(filter).field).toBe(path);
  });

  it('bounds nesting depth and the number of conditions', () => {
    let deep: Record<string, unknown> = { age: 1 };
    for (let i = 0; i < 10; i += 1) deep = { and: [deep] };
    expect(rejection(deep).reason).toMatch(/deeper/);
    const many = { or: Array.from({ length: MAX_FILTER_CONDITIONS + 1 }, (_, i) => ({ age: i })) };
    expect(rejection(many).reason).toMatch(/more than/);
  });
});

describe('RowOrder', () => {
  const ID = '00000000-0000-4000-8000-0000000000aa';
  /** Each keyset condition as it goes into its own statement, with its own bind values. */
  const built = (conditions: Array<(params: SqlParameters) => string>, params?: SqlParameters) =>
    conditions.map((condition) => condition(params ?? new SqlParameters()));

  it('sorts by created_at ascending by default, then id, and resumes after a row with one row comparison', () => {
    const order = RowOrder.of(undefined, undefined, fields);
    expect(order.orderBy).toBe('"created_at" ASC, "id" ASC');
    const params = new SqlParameters();
    expect(built(order.after('rows_x', '2024-05-01 12:00:00.123456+00', ID), params)).toEqual(['("created_at", "id") > (($2::timestamptz), $1::uuid)']);
    expect(params.values).toEqual([ID, '2024-05-01 12:00:00.123456+00']);
  });

  it('sorts numbers by their column and text by its indexed prefix, then the full value', () => {
    expect(RowOrder.of('age', 'desc', fields).orderBy).toBe('"f_age" DESC, "id" DESC');
    expect(RowOrder.of('name', 'asc', fields).orderBy).toBe('left("f_name", 200) ASC, "f_name" ASC, "id" ASC');
  });

  it('reaches the empty values after the others ascending, and before them descending', () => {
    const asc = RowOrder.of('age', 'asc', fields);
    expect(built(asc.after('rows_x', '5', ID))).toEqual(['("f_age", "id") > (($2::numeric), $1::uuid)', '"f_age" IS NULL']);
    expect(built(asc.after('rows_x', null, ID))).toEqual(['"f_age" IS NULL AND "id" > $1::uuid']);
    const desc = RowOrder.of('age', 'desc', fields);
    expect(built(desc.after('rows_x', '5', ID))).toEqual(['("f_age", "id") < (($2::numeric), $1::uuid)']);
    expect(built(desc.after('rows_x', null, ID))).toEqual(['"f_age" IS NULL AND "id" < $1::uuid', '"f_age" IS NOT NULL']);
  });

  it('resumes text after the prefix in the cursor and the whole value read back by id', () => {
    const [resume] = built(RowOrder.of('name', 'asc', fields).after('rows_x', 'abc', ID));
    expect(resume).toBe(
      '(left("f_name", 200), "f_name", "id") > (($2::text COLLATE "C"), COALESCE((SELECT "f_name" FROM tables."rows_x" WHERE "id" = $1::uuid), ($2::text COLLATE "C")), $1::uuid)',
    );
  });

  it('refuses an unknown sort key', () => {
    expect(() => RowOrder.of('nope', 'asc', fields)).toThrow(AppError);
  });
});
