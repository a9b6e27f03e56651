import type { DomainStatus } from '@contracts';

export interface RecheckPolicy {
  /** Delays after creation at which a pending domain is checked; after the last, every last delay. */
  scheduleMs: readonly number[];
  /** Between checks of an active domain. */
  intervalMs: number;
  /** How long a domain may stay pending. */
  windowMs: number;
}

/**
 * When the background re-check next looks at a domain, from its status after a check at `now`.
 * A pending domain is always looked at once its window is over, so that it fails on time; a failed
 * domain is left alone until a client verifies it again.
 */
export function nextCheckAt(status: DomainStatus, createdAt: Date, now: Date, policy: RecheckPolicy): Date | null {
  if (status === 'failed') return null;
  if (status === 'active') return new Date(now.getTime() + policy.intervalMs);
  const created = createdAt.getTime();
  const scheduled = policy.scheduleMs.map((delay) => created + delay).find((at) => at > now.getTime());
  const every = policy.scheduleMs[policy.scheduleMs.length - 1];
  const windowOver = created + policy.windowMs + 1;
  return new Date(Math.min(scheduled ?? now.getTime() + every, windowOver));
}
