import { slugify, slugOrIdSlug } from './slug';

describe('slugify', () => {
  it.each([
    ['Customers', 'customers'],
    ['Due Date', 'due_date'],
    ['Crème Brûlée', 'creme_brulee'],
    ['  Leading and trailing  ', 'leading_and_trailing'],
    ['a   b', 'a_b'],
    ['a__b', 'a__b'.replace(/_+/g, '_')],
    ['Price ($)', 'price'],
    ['x-y.z', 'xyz'],
    ['ﬁle №1', 'file_no1'],
    ['Straße', 'strae'],
    ['日本語', ''],
    ['___', ''],
    ['Tab\there', 'tabhere'],
  ])('%j -> %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('keeps at most 63 characters and never ends with an underscore', () => {
    expect(slugify('a'.repeat(100))).toHaveLength(63);
    const cut = slugify(`${'b'.repeat(62)} c`);
    expect(cut).toBe('b'.repeat(62));
  });
});

describe('slugOrIdSlug', () => {
  const id = '0f3a9c1e-77aa-4b2c-9d00-123456789abc';

  it.each([
    ['名前', 't', 't_0f3a9c1e'],
    ['🚀', 'f', 'f_0f3a9c1e'],
    ['Due Date', 'f', 'due_date'],
  ] as const)('%j (%s) -> %j', (name, prefix, slug) => {
    expect(slugOrIdSlug(name, prefix, id)).toBe(slug);
  });
});
