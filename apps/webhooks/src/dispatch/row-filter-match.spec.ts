import type { FieldType } from '@contracts';
import { AppError } from '@platform/errors';
import { checkFilter } from '@platform/row-filter';
import { compileRowMatcher, EventRow } from './row-filter-match';

const types: Record<string, FieldType> = {
  name: 'text',
  amount: 'number',
  price: 'currency',
  due: 'date',
  seen: 'datetime',
  done: 'checkbox',
  stage: 'select',
  tags: 'multi_select',
  files: 'attachment',
  mail: 'email',
};
const fields = Object.entries(types).map(([slug, fieldType]) => ({ slug, fieldType }));

const row = {
  name: 'Acme Deal',
  amount: 1500,
  price: 19.99,
  due: '2026-03-01',
  seen: '2026-03-01T10:00:00.000Z',
  done: false,
  stage: 'won',
  tags: ['vip', 'eu'],
  files: [],
  mail: '',
};
const blank = Object.fromEntries(Object.keys(types).map((slug) => [slug, null]));

function matches(filter: unknown, data: Record<string, unknown> = row): boolean {
  const tree = checkFilter(filter, fields, { timestamps: false });
  return tree === undefined || compileRowMatcher(tree)(new EventRow(data));
}

describe('compileRowMatcher: a webhook filter against an event row', () => {
  it.each([
    ['bare equality', { stage: 'won' }, true],
    ['eq', { amount: { eq: 1500 } }, true],
    ['eq is case-sensitive on text', { name: { eq: 'acme deal' } }, false],
    ['ne', { stage: { ne: 'lost' } }, true],
    ['ne on the same value', { stage: { ne: 'won' } }, false],
    ['gt', { amount: { gt: 1000 } }, true],
    ['gt at the bound', { amount: { gt: 1500 } }, false],
    ['gte at the bound', { amount: { gte: 1500 } }, true],
    ['lt', { price: { lt: 20 } }, true],
    ['lte', { price: { lte: 19.98 } }, false],
    ['date order', { due: { gt: '2026-02-28' } }, true],
    ['datetime compares instants across offsets', { seen: { eq: '2026-03-01T11:00:00+01:00' } }, true],
    ['datetime order', { seen: { lt: '2026-03-01T09:59:59Z' } }, false],
    ['in', { stage: { in: ['won', 'open'] } }, true],
    ['nin', { stage: { nin: ['won'] } }, false],
    ['contains ignores case', { name: { contains: 'ACME' } }, true],
    ['starts_with ignores case', { name: { starts_with: 'acme d' } }, true],
    ['starts_with elsewhere', { name: { starts_with: 'Deal' } }, false],
    ['checkbox', { done: false }, true],
    ['multi_select contains a member', { tags: { contains: 'vip' } }, true],
    ['multi_select in overlaps', { tags: { in: ['us', 'eu'] } }, true],
    ['multi_select nin', { tags: { nin: ['eu'] } }, false],
    ['multi_select eq is set equality', { tags: { eq: ['eu', 'vip'] } }, true],
    ['multi_select ne', { tags: { ne: ['eu'] } }, true],
    ['is_empty on an empty text', { mail: { is_empty: true } }, true],
    ['is_empty on an empty list', { files: { is_empty: true } }, true],
    ['is_empty false on a value', { name: { is_empty: false } }, true],
    ['several keys are AND-ed', { stage: 'won', amount: { lt: 1000 } }, false],
    ['or', { or: [{ stage: 'lost' }, { amount: { gte: 1000 } }] }, true],
    ['and inside or', { or: [{ and: [{ stage: 'won' }, { done: true }] }, { name: { contains: 'zzz' } }] }, false],
  ])('%s', (_label, filter, expected) => {
    expect(matches(filter)).toBe(expected);
  });

  it('treats a missing value like the rows list: every comparison fails but ne, nin and is_empty', () => {
    expect(matches({ amount: { gt: 0 } }, blank)).toBe(false);
    expect(matches({ amount: { lte: 0 } }, blank)).toBe(false);
    expect(matches({ name: { contains: 'a' } }, blank)).toBe(false);
    expect(matches({ stage: { in: ['won'] } }, blank)).toBe(false);
    expect(matches({ tags: { contains: 'vip' } }, blank)).toBe(false);
    expect(matches({ stage: { ne: 'won' } }, blank)).toBe(true);
    expect(matches({ stage: { nin: ['won'] } }, blank)).toBe(true);
    expect(matches({ tags: { nin: ['vip'] } }, blank)).toBe(true);
    expect(matches({ amount: { is_empty: true } }, blank)).toBe(true);
    expect(matches({ amount: { eq: null } }, blank)).toBe(true);
    expect(matches({ amount: { ne: null } }, blank)).toBe(false);
  });

  it('refuses the row timestamps in a webhook filter, which events do not carry', () => {
    expect(() => checkFilter({ created_at: { gt: '2026-01-01T00:00:00Z' } }, fields, { timestamps: false })).toThrow(AppError);
    expect(() => checkFilter({ updated_at: { gt: '2026-01-01T00:00:00Z' } }, fields)).not.toThrow();
  });
});
