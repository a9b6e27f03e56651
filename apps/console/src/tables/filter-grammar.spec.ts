import type { FieldView } from './field-drafts';
import { filterOf, operatorsFor } from './filter-grammar';

const field = (slug: string, field_type: FieldView['field_type']): FieldView => ({ id: slug, name: slug, slug, field_type, is_required: false, options: {} });
const fields = [field('name', 'text'), field('amount', 'number'), field('paid', 'checkbox'), field('tags', 'multi_select'), field('stage', 'select')];

describe('the filter builder writes the rows list grammar', () => {
  it('writes one condition as the field and its operator, with the operand typed as the field is', () => {
    expect(filterOf([{ slug: 'amount', op: 'gte', value: '100' }], fields, 'and')).toEqual({ amount: { gte: 100 } });
    expect(filterOf([{ slug: 'paid', op: 'eq', value: 'true' }], fields, 'and')).toEqual({ paid: { eq: true } });
    expect(filterOf([{ slug: 'name', op: 'starts_with', value: 'Ad' }], fields, 'and')).toEqual({ name: { starts_with: 'Ad' } });
  });

  it('splits in and nin on commas, and reads is_empty as a flag', () => {
    expect(filterOf([{ slug: 'amount', op: 'in', value: '1, 2,3' }], fields, 'and')).toEqual({ amount: { in: [1, 2, 3] } });
    expect(filterOf([{ slug: 'stage', op: 'nin', value: 'won, lost' }], fields, 'and')).toEqual({ stage: { nin: ['won', 'lost'] } });
    expect(filterOf([{ slug: 'tags', op: 'is_empty', value: 'false' }], fields, 'and')).toEqual({ tags: { is_empty: false } });
    expect(filterOf([{ slug: 'tags', op: 'is_empty', value: '' }], fields, 'and')).toEqual({ tags: { is_empty: true } });
  });

  it('joins several conditions under and / or, so two on one field both hold', () => {
    const range = [
      { slug: 'amount', op: 'gte', value: '10' },
      { slug: 'amount', op: 'lt', value: '20' },
    ];
    expect(filterOf(range, fields, 'and')).toEqual({ and: [{ amount: { gte: 10 } }, { amount: { lt: 20 } }] });
    expect(filterOf(range, fields, 'or')).toEqual({ or: [{ amount: { gte: 10 } }, { amount: { lt: 20 } }] });
    expect(filterOf([], fields, 'and')).toBeUndefined();
  });

  it('leaves a number that does not parse as typed, so the API names what is wrong', () => {
    expect(filterOf([{ slug: 'amount', op: 'eq', value: 'lots' }], fields, 'and')).toEqual({ amount: { eq: 'lots' } });
  });

  it('offers each type the operators the rows list takes for it', () => {
    expect(operatorsFor('multi_select')).toEqual(['contains', 'is_empty']);
    expect(operatorsFor('attachment')).toEqual(['is_empty']);
    expect(operatorsFor('number')).not.toContain('contains');
    expect(operatorsFor('text')).toEqual(expect.arrayContaining(['contains', 'starts_with', 'in', 'gt']));
    expect(operatorsFor('timestamp')).toEqual(['eq', 'ne', 'gt', 'gte', 'lt', 'lte']);
  });
});
