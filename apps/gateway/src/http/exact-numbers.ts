import { joinPath } from '@platform/errors';
import { closingQuote, QUOTE } from './json-text';

/**
 * A JSON number is read as a double, which holds any 15 significant digits exactly; a longer literal may
 * come out as another number (`123456789012345678901234567890` as `1.2345678901234568e+29`, the integer
 * 2^53 + 1 as 2^53, `1e-400` as 0). Those would be stored silently altered, so the API refuses them; a literal
 * that a double does hold, however long (`0.30000000000000004`), passes.
 */
const ALWAYS_EXACT_DIGITS = 15;
/**
 * Literals worth a look: more than 15 digits (16 or more characters of digits and dots in a row), or an
 * exponent of -100 or less, which may fall under the smallest double and read as 0.
 */
const WORTH_A_LOOK = /[0-9.]{16}|[eE]-\d{3}/;
const LITERAL = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** `sign digits e point`: the value 0.digits × 10^point with no leading or trailing zero, or `0`. */
function decimalOf(literal: string): string | undefined {
  const match = LITERAL.exec(literal);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const all = whole + fraction;
  const digits = all.replace(/^0+/, '');
  if (digits === '') return '0';
  const point = whole.length - (all.length - digits.length) + Number(exponent);
  return `${sign}${digits.replace(/0+$/, '')}e${point}`;
}

function digitCount(literal: string): number {
  let count = 0;
  for (let i = 0; i < literal.length && literal[i] !== 'e' && literal[i] !== 'E'; i += 1) if (literal[i] >= '0' && literal[i] <= '9') count += 1;
  return count;
}

function isNumberChar(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 45 || code === 43 || code === 46 || code === 101 || code === 69; // 0-9 - + . e E
}

/**
 * The first number literal of a JSON text (outside its strings) that JSON.parse would not read as the
 * same decimal value, or undefined. Texts without a long run of digits are answered without a scan.
 * Literals that overflow to infinity are left to the check of finite numbers.
 */
export function inexactNumber(text: string): string | undefined {
  if (!WORTH_A_LOOK.test(text)) return undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (char === QUOTE) {
      i = closingQuote(text, i);
      continue;
    }
    if (!isNumberChar(char)) continue;
    let end = i;
    while (end < text.length && isNumberChar(text.charCodeAt(end))) end += 1;
    const literal = text.slice(i, end);
    i = end - 1;
    if (digitCount(literal) <= ALWAYS_EXACT_DIGITS && !WORTH_A_LOOK.test(literal)) continue;
    const value = Number(literal);
    if (Number.isFinite(value) && decimalOf(literal) !== decimalOf(String(value))) return literal;
  }
  return undefined;
}

/** The path of the first number in a parsed JSON value equal to `target`, `body` when none is found. */
export function pathOfNumber(value: unknown, target: number, path = ''): string | undefined {
  if (typeof value === 'number') return value === target ? path || 'body' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = pathOfNumber(value[i], target, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    const found = pathOfNumber(child, target, joinPath(path, key));
    if (found) return found;
  }
  return undefined;
}
