import { requiredRecords } from '../domain/required-records';
import type { RecheckPolicy } from '../recheck/recheck-schedule';
import type { DnsObservation, Lookup } from './dns-observation';
import { applyCheck, CheckedDomain } from './domain-check';
import { judgeRecords } from './verification-rules';

const HOUR = 3_600_000;
const policy: RecheckPolicy = { scheduleMs: [60_000, 300_000], intervalMs: 24 * HOUR, windowMs: 72 * HOUR };
const required = requiredRecords('example.com', ['k1', 'k2'], { mxHost: 'mx.mail.example.net', spfInclude: 'spf.mail.example.net', dkimDomain: 'dkim.mail.example.net' });
const found = (...values: string[]): Lookup => ({ outcome: 'found', values });
const missing: Lookup = { outcome: 'missing' };
const timeout: Lookup = { outcome: 'timeout' };
const right: DnsObservation = {
  mx: found('mx.mail.example.net'),
  txt: found('v=spf1 include:spf.mail.example.net ~all'),
  dkim: [found('k1.dkim.mail.example.net'), found('k2.dkim.mail.example.net')],
  dmarc: missing,
};
const now = new Date('2026-11-23T12:00:00.000Z');
const verdict = (observed: Partial<DnsObservation>) => judgeRecords(required, { ...right, ...observed });

function domain(state: Partial<CheckedDomain> = {}): CheckedDomain {
  return {
    status: 'pending',
    createdAt: new Date(now.getTime() - HOUR),
    verifiedAt: null,
    dnsConfigured: false,
    mxVerified: false,
    spfVerified: false,
    dkimVerified: false,
    ...state,
  };
}
const healthy = () => domain({ status: 'active', verifiedAt: new Date(now.getTime() - 10 * HOUR), dnsConfigured: true, mxVerified: true, spfVerified: true, dkimVerified: true });

describe('applyCheck', () => {
  it('verifies a pending domain whose records are right, keeping the DMARC advice in issues', () => {
    const { state, event } = applyCheck(domain(), verdict({}), now, policy);
    expect(event).toBe('domain.verified');
    expect(state).toMatchObject({ status: 'active', verifiedAt: now, mxVerified: true, spfVerified: true, dkimVerified: true, checkedAt: now });
    expect(state.issues).toEqual([expect.stringMatching(/^Recommended: no DMARC record/)]);
    expect(state.nextCheckAt).toEqual(new Date(now.getTime() + 24 * HOUR));
  });

  it('verifies a failed domain that now verifies', () => {
    expect(applyCheck(domain({ status: 'failed' }), verdict({}), now, policy).event).toBe('domain.verified');
  });

  it('fails a pending domain past its window, once', () => {
    const old = domain({ createdAt: new Date(now.getTime() - 73 * HOUR) });
    const first = applyCheck(old, verdict({ mx: missing }), now, policy);
    expect(first).toMatchObject({ event: 'domain.failed', state: { status: 'failed', nextCheckAt: null } });
    expect(applyCheck({ ...old, status: 'failed' }, verdict({ mx: missing }), now, policy).event).toBeUndefined();
  });

  it('keeps a pending domain inside its window pending, with no event', () => {
    const outcome = applyCheck(domain(), verdict({ txt: missing }), now, policy);
    expect(outcome.event).toBeUndefined();
    expect(outcome.state).toMatchObject({ status: 'pending', mxVerified: true, spfVerified: false, dnsConfigured: true });
  });

  it('degrades an active domain once when a required record goes missing', () => {
    const first = applyCheck(healthy(), verdict({ txt: missing }), now, policy);
    expect(first.event).toBe('domain.degraded');
    expect(first.state).toMatchObject({ status: 'active', spfVerified: false, mxVerified: true });
    const again = applyCheck({ ...healthy(), spfVerified: false }, verdict({ txt: missing }), now, policy);
    expect(again.event).toBeUndefined();
  });

  it('degrades on a wrong record too', () => {
    expect(applyCheck(healthy(), verdict({ mx: found('other.example.org') }), now, policy).event).toBe('domain.degraded');
  });

  it('never degrades an active domain because DNS did not answer, and keeps its flags', () => {
    const silent = verdict({ mx: timeout, txt: timeout, dkim: [timeout, timeout], dmarc: timeout });
    const { state, event } = applyCheck(healthy(), silent, now, policy);
    expect(event).toBeUndefined();
    expect(state).toMatchObject({ status: 'active', mxVerified: true, spfVerified: true, dkimVerified: true, checkedAt: now });
    expect(state.issues.every((issue) => /timed out/.test(issue))).toBe(true);
  });

  it('tells nothing when an active domain stays right', () => {
    expect(applyCheck(healthy(), verdict({}), now, policy).event).toBeUndefined();
  });
});
