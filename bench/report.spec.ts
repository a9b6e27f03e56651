import { keptUp } from './report';

describe('the sustained phase', () => {
  const phase = { rate: 1000, createdPerSecond: 1000, deliveries: 60_000, expected: 60_000, drainMs: 240 };

  it('kept up when the creates held the rate and every event arrived soon after the last create', () => {
    expect(keptUp(phase)).toBe(true);
    expect(keptUp({ ...phase, createdPerSecond: 980, drainMs: 1000 })).toBe(true);
  });

  it('left a backlog when the last event came more than a second after the load, or some never came', () => {
    expect(keptUp({ ...phase, drainMs: 1001 })).toBe(false);
    expect(keptUp({ ...phase, deliveries: 59_999 })).toBe(false);
  });

  it('did not hold the load when the creates fell behind the rate', () => {
    expect(keptUp({ ...phase, createdPerSecond: 979 })).toBe(false);
  });
});
