import { nextStatus } from './domain-status';

const HOUR = 3_600_000;
const WINDOW = 72 * HOUR;
const now = new Date('2026-11-21T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('nextStatus', () => {
  it('activates a pending domain that verifies, setting verified_at', () => {
    expect(nextStatus({ status: 'pending', createdAt: ago(HOUR), verifiedAt: null }, true, now, WINDOW)).toEqual({ status: 'active', verifiedAt: now });
  });

  it('keeps a pending domain pending within the window', () => {
    expect(nextStatus({ status: 'pending', createdAt: ago(71 * HOUR), verifiedAt: null }, false, now, WINDOW).status).toBe('pending');
  });

  it('fails a pending domain past the window', () => {
    expect(nextStatus({ status: 'pending', createdAt: ago(73 * HOUR), verifiedAt: null }, false, now, WINDOW).status).toBe('failed');
  });

  it('activates a pending domain past the window when it verifies', () => {
    expect(nextStatus({ status: 'pending', createdAt: ago(73 * HOUR), verifiedAt: null }, true, now, WINDOW).status).toBe('active');
  });

  it('recovers a failed domain that verifies', () => {
    expect(nextStatus({ status: 'failed', createdAt: ago(100 * HOUR), verifiedAt: null }, true, now, WINDOW)).toEqual({ status: 'active', verifiedAt: now });
  });

  it('leaves a failed domain failed while it does not verify', () => {
    expect(nextStatus({ status: 'failed', createdAt: ago(100 * HOUR), verifiedAt: null }, false, now, WINDOW).status).toBe('failed');
  });

  it('keeps an active domain active with its first verified_at', () => {
    const verifiedAt = ago(HOUR);
    expect(nextStatus({ status: 'active', createdAt: ago(200 * HOUR), verifiedAt }, false, now, WINDOW)).toEqual({ status: 'active', verifiedAt });
  });
});
