import { nestingDepth } from './fastify-server';

describe('nestingDepth', () => {
  it.each([
    ['1', 0],
    ['{}', 1],
    ['{"a":[1,{"b":2}]}', 3],
    ['[[[]],[]]', 3],
    ['{"text":"[[[[{{{{"}', 1],
    ['{"escaped":"\\"[[[","x":[]}', 2],
  ])('measures %s as %i', (text, depth) => {
    expect(nestingDepth(text)).toBe(depth);
  });

  it('measures very deep input without recursion', () => {
    expect(nestingDepth('['.repeat(200_000) + ']'.repeat(200_000))).toBe(200_000);
  });
});
