import { DeadlineExceededError } from './query-scope';

type Admit = () => void;

/** How long after its last connection an organization still counts as active, holding others to their share. */
export const ACTIVE_WINDOW_MS = 1_000;

/**
 * Admission to a pool of `capacity` connections. While other organizations are active (holding or waiting
 * for a connection, or having taken one in the last second), one organization holds at most
 * `perOrganization`; alone, it may hold up to `alonePerOrganization`, which leaves the rest free for the
 * next organization to arrive. When no connection may be taken, work waits in its organization's queue;
 * each freed connection goes to the next organization in turn that may take one (round robin), so one
 * organization's pile of heavy queries queues behind itself, never in front of everyone else.
 */
export class OrganizationShares {
  private inUse = 0;
  private readonly held = new Map<string, number>();
  /** Waiting work per organization; the Map's order is the turn. */
  private readonly waiting = new Map<string, Admit[]>();
  /** The last two organizations to take a connection, with when: enough to tell whether another was active. */
  private latest: { organizationId: string; at: number } | undefined;
  private previous: { organizationId: string; at: number } | undefined;

  constructor(
    private readonly capacity: number,
    readonly perOrganization: number,
    readonly alonePerOrganization = perOrganization,
    private readonly activeWindowMs = ACTIVE_WINDOW_MS,
  ) {}

  /** Resolves with the function that gives the share back; rejects when the deadline passes first. */
  acquire(organizationId: string, deadline: number): Promise<() => void> {
    // Work already waiting keeps its turn within the organization.
    if (!this.waiting.has(organizationId) && this.mayTake(organizationId)) return Promise.resolve(this.take(organizationId));
    const admitted = new Promise<() => void>((resolve, reject) => {
      const admit: Admit = () => {
        clearTimeout(timer);
        resolve(this.take(organizationId));
      };
      const timer = setTimeout(() => {
        this.withdraw(organizationId, admit);
        reject(new DeadlineExceededError());
      }, Math.max(0, deadline - Date.now()));
      timer.unref();
      const queue = this.waiting.get(organizationId);
      if (queue) queue.push(admit);
      else this.waiting.set(organizationId, [admit]);
    });
    // The others may have gone quiet since the queue formed.
    this.admitWaiting();
    return admitted;
  }

  /** Connections held, and work waiting, for one organization (for metrics and tests). */
  usage(organizationId: string): { held: number; waiting: number } {
    return { held: this.held.get(organizationId) ?? 0, waiting: this.waiting.get(organizationId)?.length ?? 0 };
  }

  private mayTake(organizationId: string): boolean {
    if (this.inUse >= this.capacity) return false;
    const held = this.held.get(organizationId) ?? 0;
    if (held < this.perOrganization) return true;
    return held < this.alonePerOrganization && !this.othersActive(organizationId);
  }

  /** Whether an organization other than this one holds or waits for a connection, or took one lately. */
  private othersActive(organizationId: string): boolean {
    const others = (map: Map<string, unknown>) => map.size > 1 || (map.size === 1 && !map.has(organizationId));
    if (others(this.held) || others(this.waiting)) return true;
    const since = Date.now() - this.activeWindowMs;
    return [this.latest, this.previous].some((taken) => taken !== undefined && taken.organizationId !== organizationId && taken.at >= since);
  }

  private take(organizationId: string): () => void {
    const now = Date.now();
    if (this.latest?.organizationId !== organizationId) this.previous = this.latest;
    this.latest = { organizationId, at: now };
    this.inUse += 1;
    this.held.set(organizationId, (this.held.get(organizationId) ?? 0) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.inUse -= 1;
      const left = (this.held.get(organizationId) ?? 1) - 1;
      if (left === 0) this.held.delete(organizationId);
      else this.held.set(organizationId, left);
      this.admitWaiting();
    };
  }

  /** Connections came free (or the others went quiet): each organization in turn that may take one does, then goes to the back. */
  private admitWaiting(): void {
    for (let admitted = true; admitted; ) {
      admitted = false;
      for (const [organizationId, queue] of this.waiting) {
        if (!this.mayTake(organizationId)) continue;
        const admit = queue.shift() as Admit;
        this.waiting.delete(organizationId);
        if (queue.length > 0) this.waiting.set(organizationId, queue);
        admit();
        admitted = true;
        break;
      }
    }
  }

  private withdraw(organizationId: string, admit: Admit): void {
    const queue = this.waiting.get(organizationId);
    if (!queue) return;
    const at = queue.indexOf(admit);
    if (at >= 0) queue.splice(at, 1);
    if (queue.length === 0) this.waiting.delete(organizationId);
  }
}
