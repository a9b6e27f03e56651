import { inexactNumber } from './exact-numbers';
import { closingQuote } from './json-text';

describe('closingQuote', () => {
  it.each([
    ['"abc"', 0, 4],
    ['{"a":"x\\"y","b":1}', 5, 10],
    ['"\\\\"', 0, 3],
    ['"never closed', 0, 13],
  ])('finds the quote that closes the string at %s[%i]', (text, start, end) => {
    expect(closingQuote(text, start)).toBe(end);
  });
});

describe('inexactNumber', () => {
  it('reads the numbers outside strings only', () => {
    expect(inexactNumber('{"id":"12345678901234567890","n":1}')).toBeUndefined();
    expect(inexactNumber('{"note":"a \\" 12345678901234567890","n":12345678901234567890}')).toBe('12345678901234567890');
  });
});
