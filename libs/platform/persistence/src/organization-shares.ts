import { DeadlineExceededError } from './query-scope';

type Admit = () => void;

/**
 * Admission to a pool of `capacity` connections, at most `perOrganization` of them held by one
 * organization. When no connection may be taken, work waits in its organization's queue; each freed
 * connection goes to the next organization in turn that may take one (round robin), so one
 * organization's pile of heavy queries queues behind itself, never in front of everyone else.
 */
export class OrganizationShares {
  private inUse = 0;
  private readonly held = new Map<string, number>();
  /** Waiting work per organization; the Map's order is the turn. */
  private readonly waiting = new Map<string, Admit[]>();

  constructor(
    private readonly capacity: number,
    readonly perOrganization: number,
  ) {}

  /** Resolves with the function that gives the share back; rejects when the deadline passes first. */
  acquire(organizationId: string, deadline: number): Promise<() => void> {
    if (this.mayTake(organizationId)) return Promise.resolve(this.take(organizationId));
    return new Promise((resolve, reject) => {
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
  }

  /** Connections held, and work waiting, for one organization (for metrics and tests). */
  usage(organizationId: string): { held: number; waiting: number } {
    return { held: this.held.get(organizationId) ?? 0, waiting: this.waiting.get(organizationId)?.length ?? 0 };
  }

  private mayTake(organizationId: string): boolean {
    return this.inUse < this.capacity && (this.held.get(organizationId) ?? 0) < this.perOrganization;
  }

  private take(organizationId: string): () => void {
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
      this.admitNext();
    };
  }

  /** One connection came free: the first organization in turn that may take it does, then goes to the back. */
  private admitNext(): void {
    for (const [organizationId, queue] of this.waiting) {
      if (!this.mayTake(organizationId)) continue;
      const admit = queue.shift() as Admit;
      this.waiting.delete(organizationId);
      if (queue.length > 0) this.waiting.set(organizationId, queue);
      admit();
      return;
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
