import { nextCheckAt, RecheckPolicy } from './recheck-schedule';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const policy: RecheckPolicy = { scheduleMs: [1 * MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR], intervalMs: 24 * HOUR, windowMs: 72 * HOUR };
const created = new Date('2026-11-23T10:00:00.000Z');
const at = (ms: number) => new Date(created.getTime() + ms);

describe('nextCheckAt', () => {
  it('checks a pending domain at each delay after its creation', () => {
    expect(nextCheckAt('pending', created, created, policy)).toEqual(at(MINUTE));
    expect(nextCheckAt('pending', created, at(MINUTE), policy)).toEqual(at(5 * MINUTE));
    expect(nextCheckAt('pending', created, at(2 * MINUTE), policy)).toEqual(at(5 * MINUTE));
    expect(nextCheckAt('pending', created, at(5 * MINUTE), policy)).toEqual(at(15 * MINUTE));
    expect(nextCheckAt('pending', created, at(15 * MINUTE), policy)).toEqual(at(HOUR));
  });

  it('then every last delay', () => {
    expect(nextCheckAt('pending', created, at(HOUR), policy)).toEqual(at(2 * HOUR));
    expect(nextCheckAt('pending', created, at(10 * HOUR + 7 * MINUTE), policy)).toEqual(at(11 * HOUR + 7 * MINUTE));
  });

  it('looks at a pending domain again just after its window ends, so it fails on time', () => {
    expect(nextCheckAt('pending', created, at(71 * HOUR + 30 * MINUTE), policy)).toEqual(at(72 * HOUR + 1));
    const short = { ...policy, windowMs: 3 * MINUTE };
    expect(nextCheckAt('pending', created, at(MINUTE), short)).toEqual(at(3 * MINUTE + 1));
  });

  it('checks an active domain every interval and leaves a failed one to the client', () => {
    const now = at(5 * HOUR);
    expect(nextCheckAt('active', created, now, policy)).toEqual(new Date(now.getTime() + 24 * HOUR));
    expect(nextCheckAt('failed', created, now, policy)).toBeNull();
  });
});
