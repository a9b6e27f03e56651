import { SqlLiterals } from './sql-literals';

describe('SqlLiterals', () => {
  it('quotes text, escapes quotes and backslashes, and writes arrays and nulls as node-postgres sends them', () => {
    const literals = new SqlLiterals();
    expect(literals.add("it's")).toBe("'it''s'");
    expect(literals.add('a\\b')).toBe(" E'a\\\\b'");
    expect(literals.add(12.5)).toBe("'12.5'");
    expect(literals.add(['a', 'b"c'])).toBe(` E'{"a","b\\\\"c"}'`);
    expect(literals.add(null)).toBe('NULL');
    expect(literals.values).toEqual([]);
  });
});
