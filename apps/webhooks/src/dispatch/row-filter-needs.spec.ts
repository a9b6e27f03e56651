import { checkFilter, FilterNode } from '@platform/row-filter';
import { FIELD_TYPES, generatedFilter, generatedRow, Generator } from '../../test/generated-aims';
import { compileRowMatcher, EventRow } from './row-filter-match';
import { filterNeeds, Need } from './row-filter-needs';

const fields = Object.entries(FIELD_TYPES).map(([slug, fieldType]) => ({ slug, fieldType }));
const tree = (filter: unknown) => checkFilter(filter, fields, { timestamps: false }) as FilterNode;
const needsOf = (filter: unknown) => filterNeeds(tree(filter))?.map(described);

function described(need: Need): string {
  return `${need.kind} ${need.slot.slug} ${String(need.kind === 'prefix' ? need.prefix : need.value)}`;
}

/** The spec's own reading of a need, written from its definition rather than from the index. */
function meets(data: Record<string, unknown>, need: Need): boolean {
  const value = Object.hasOwn(data, need.slot.slug) ? data[need.slot.slug] : undefined;
  if (need.kind === 'prefix') return typeof value === 'string' && value.toLowerCase().startsWith(need.prefix);
  if (need.kind === 'instant') return typeof value === 'string' && Object.is(Date.parse(value), need.value);
  return value !== undefined && (value === need.value || Object.is(value, need.value));
}

describe('filterNeeds: what a row must have for a filter to match it', () => {
  it.each<[string, unknown, string[] | undefined]>([
    ['eq: the value', { stage: 'won' }, ['value stage won']],
    ['in: any of the values', { stage: { in: ['won', 'lost'] } }, ['value stage won', 'value stage lost']],
    ['starts_with: the lowercased prefix', { title: { starts_with: 'DEal' } }, ['prefix title deal']],
    ['datetime eq: the instant', { seen: { eq: '2026-03-01T11:00:00+01:00' } }, [`instant seen ${Date.parse('2026-03-01T10:00:00Z')}`]],
    ['and: its part with the fewest rows through (a value before a prefix)', { title: { starts_with: 'deal' }, stage: 'won' }, ['value stage won']],
    ['and: a part that has needs, beside one that has none', { amount: { gte: 5 }, stage: { in: ['won', 'lost'] } }, ['value stage won', 'value stage lost']],
    ['or: the union of its parts', { or: [{ stage: 'won' }, { title: { starts_with: 'x' } }] }, ['value stage won', 'prefix title x']],
    ['or: none when one part has none', { or: [{ stage: 'won' }, { amount: { gt: 100 } }] }, undefined],
    ['ne', { stage: { ne: 'won' } }, undefined],
    ['nin', { stage: { nin: ['won'] } }, undefined],
    ['eq null, which a missing value meets', { stage: { eq: null } }, undefined],
    ['contains', { title: { contains: 'deal' } }, undefined],
    ['an order', { amount: { lt: 5 } }, undefined],
    ['is_empty', { title: { is_empty: true } }, undefined],
    ['multi_select', { tags: { contains: 'vip' } }, undefined],
  ])('%s', (_label, filter, expected) => {
    expect(needsOf(filter)).toEqual(expected);
  });

  it('is a necessary condition of the filter: every row a generated filter matches meets one of its needs', () => {
    const g = new Generator(31);
    const known = new Map<string, number>();
    const missed: unknown[] = [];
    let matched = 0;
    let skippable = 0;
    for (let i = 0; i < 3_000; i += 1) {
      const { filter } = generatedFilter(g);
      const node = tree(filter);
      const needs = filterNeeds(node);
      const matcher = compileRowMatcher(node);
      if (needs !== undefined) for (const need of needs) known.set(need.kind, (known.get(need.kind) ?? 0) + 1);
      for (let j = 0; j < 40; j += 1) {
        const data = generatedRow(g);
        const matches = matcher(new EventRow(data));
        const met = needs === undefined || needs.some((need) => meets(data, need));
        if (matches) matched += 1;
        if (matches && !met) missed.push({ filter, data });
        if (!met) skippable += 1;
      }
    }
    expect(missed.slice(0, 3)).toEqual([]);
    // Not vacuous: filters matched rows, needs of every kind were known, and they ruled rows out.
    expect(matched).toBeGreaterThan(10_000);
    expect(skippable).toBeGreaterThan(30_000);
    for (const kind of ['value', 'instant', 'prefix']) expect(known.get(kind) ?? 0).toBeGreaterThan(50);
  });

  it('reads types as the matcher does: a date is its text, a number is not its text', () => {
    expect(needsOf({ due: '2026-03-01' })).toEqual(['value due 2026-03-01']);
    const [need] = filterNeeds(tree({ amount: 5 })) ?? [];
    expect(need).toMatchObject({ kind: 'value', value: 5 });
    expect(meets({ amount: '5' }, need)).toBe(false);
  });
});
