import type { DomainStatus } from '@contracts';
import type { RecheckPolicy } from '../recheck/recheck-schedule';
import { nextCheckAt } from '../recheck/recheck-schedule';
import { nextStatus } from './domain-status';
import type { RecordsVerdict } from './verification-rules';

export type DomainCheckEvent = 'domain.verified' | 'domain.failed' | 'domain.degraded';

/** What a check needs to know about the domain as it is now. */
export interface CheckedDomain {
  status: DomainStatus;
  createdAt: Date;
  verifiedAt: Date | null;
  dnsConfigured: boolean;
  mxVerified: boolean;
  spfVerified: boolean;
  dkimVerified: boolean;
}

export interface CheckResultState extends Omit<CheckedDomain, 'createdAt'> {
  issues: string[];
  checkedAt: Date;
  nextCheckAt: Date | null;
}

export interface CheckOutcome {
  state: CheckResultState;
  /** The event the change calls for, if any. */
  event?: DomainCheckEvent;
}

/**
 * The domain after one check, and the event it calls for. Pure, so that a client's verify and the
 * background re-check apply exactly the same rules. A flag that DNS said nothing about (a timeout)
 * keeps its value, so a silent name server never degrades an active domain; `domain.degraded` is
 * told once, when an active domain whose records were all right is found with one missing or wrong.
 */
export function applyCheck(current: CheckedDomain, verdict: RecordsVerdict, now: Date, policy: RecheckPolicy): CheckOutcome {
  const next = nextStatus(current, verdict.allVerified, now, policy.windowMs);
  const flags = {
    mxVerified: verdict.known.mx ? verdict.mxVerified : current.mxVerified,
    spfVerified: verdict.known.spf ? verdict.spfVerified : current.spfVerified,
    dkimVerified: verdict.known.dkim ? verdict.dkimVerified : current.dkimVerified,
  };
  const state: CheckResultState = {
    status: next.status,
    verifiedAt: next.verifiedAt,
    dnsConfigured: current.dnsConfigured || verdict.anyRecordSeen,
    ...flags,
    issues: [...verdict.issues, ...verdict.recommendations],
    checkedAt: now,
    nextCheckAt: nextCheckAt(next.status, current.createdAt, now, policy),
  };
  return { state, event: eventOf(current, state) };
}

function allVerified(flags: Pick<CheckedDomain, 'mxVerified' | 'spfVerified' | 'dkimVerified'>): boolean {
  return flags.mxVerified && flags.spfVerified && flags.dkimVerified;
}

function eventOf(before: CheckedDomain, after: CheckResultState): DomainCheckEvent | undefined {
  if (after.status === 'active' && before.status !== 'active') return 'domain.verified';
  if (after.status === 'failed' && before.status !== 'failed') return 'domain.failed';
  if (before.status === 'active' && after.status === 'active' && allVerified(before) && !allVerified(after)) return 'domain.degraded';
  return undefined;
}
