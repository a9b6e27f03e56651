import { roundHalfAwayFromZero } from './decimal-round';

describe('roundHalfAwayFromZero', () => {
  it.each([
    [1.005, 2, 1.01],
    [-1.005, 2, -1.01],
    [2.5, 0, 3],
    [-2.5, 0, -3],
    [1.4999, 0, 1],
    [0.125, 2, 0.13],
    [123.456, 1, 123.5],
    [9.995, 2, 10],
    [0.0004, 3, 0],
    [0.0005, 3, 0.001],
    [0.00049, 0, 0],
    [1e21, 2, 1e21],
    [1.5e-7, 7, 2e-7],
    [42, 0, 42],
    [0, 3, 0],
    [12.3, 10, 12.3],
    [99.5, 0, 100],
  ])('%p at precision %p -> %p', (value, precision, expected) => {
    expect(roundHalfAwayFromZero(value, precision)).toBe(expected);
  });
});
