import { slugify } from './slug';

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
