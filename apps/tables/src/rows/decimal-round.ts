/**
 * Rounds half away from zero on the number's shortest decimal form, the digits the client wrote:
 * 1.005 -> 1.01 at precision 2, where binary arithmetic (and toFixed) would give 1.00.
 */
export function roundHalfAwayFromZero(value: number, precision: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const negative = value < 0;
  const [mantissa, exponentText] = Math.abs(value).toExponential().split('e');
  const exponent = Number(exponentText);
  const digits = mantissa.replace('.', '');
  // value = 0.digits * 10^(exponent + 1); keep the digits that fall before the cut.
  const pointAt = exponent + 1;
  const keep = pointAt + precision;
  if (keep >= digits.length) return value;
  if (keep < 0) return 0;
  const kept = digits.slice(0, keep) || '0';
  const roundUp = Number(digits[keep]) >= 5;
  let scaled = BigInt(kept);
  if (roundUp) scaled += 1n;
  const result = Number(`${scaled}e${pointAt - keep}`);
  return negative ? -result : result;
}
