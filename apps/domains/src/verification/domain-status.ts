import type { DomainStatus } from '@contracts';

export interface StatusState {
  status: DomainStatus;
  createdAt: Date;
  verifiedAt: Date | null;
}

/** True when a pending domain has had its whole window to verify and the window is over. */
export function isPastVerificationWindow(createdAt: Date, now: Date, windowMs: number): boolean {
  return now.getTime() - createdAt.getTime() > windowMs;
}

/**
 * The contract's transitions on verify: pending or failed and all verified -> active (verified_at set);
 * pending past the window and not all verified -> failed. An active domain stays active.
 */
export function nextStatus(current: StatusState, allVerified: boolean, now: Date, windowMs: number): Pick<StatusState, 'status' | 'verifiedAt'> {
  if (current.status === 'active') return { status: 'active', verifiedAt: current.verifiedAt };
  if (allVerified) return { status: 'active', verifiedAt: now };
  if (current.status === 'pending' && isPastVerificationWindow(current.createdAt, now, windowMs)) {
    return { status: 'failed', verifiedAt: current.verifiedAt };
  }
  return { status: current.status, verifiedAt: current.verifiedAt };
}
