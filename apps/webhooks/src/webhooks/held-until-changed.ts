import type { NatsConnection, Subscription } from 'nats';
import { SUBSCRIPTIONS_CHANGED_SUBJECT } from './subscription-changes';

interface Held<V> {
  value: V;
  /** Date.now() after which it is read again. */
  until: number;
}

/**
 * What a process reads of organizations' webhooks and holds between reads, each value under its
 * organization and a key. What keeps it right across processes:
 * - every write of an organization's webhooks announces it on SUBSCRIPTIONS_CHANGED_SUBJECT before it is
 *   answered (SubscriptionChanges), and the organization is forgotten as the message is read, on the
 *   connection the process's own messages come through, before any message published after it;
 * - a read that an announcement overtook serves its own caller but is not kept (`mark`, then `keep`);
 * - a lost connection may have lost announcements: everything is forgotten when it drops and returns;
 * - whatever is held is read again after `ttlMs` however it got there (an announcement lost with a NATS
 *   node, a writer that died between its commit and its announcement). A `ttlMs` of 0 holds nothing.
 * Organizations are held at most `maxOrganizations`; the one read longest ago goes first.
 */
export class HeldUntilChanged<V> {
  /** A Map, not an LRU cache: one lookup per read, no timer. Its order is the order of reading. */
  private readonly held = new Map<string, Map<string, Held<V>>>();
  /** Counts what made held values stale; a read keeps its answer only when this did not move meanwhile. */
  private changes = 0;
  private announcements?: Subscription;

  constructor(
    private readonly ttlMs: number,
    private readonly maxOrganizations: number,
  ) {}

  /** Forgets an organization as its change is announced, and everything when the connection drops or returns. */
  follow(nc: NatsConnection, stopped: (error: unknown) => void): void {
    if (this.ttlMs <= 0) return;
    // A callback, not an iterator: the organization is forgotten as the message is read, before the
    // messages behind it on the connection are handed on.
    this.announcements = nc.subscribe(SUBSCRIPTIONS_CHANGED_SUBJECT, {
      callback: (error, message) => (error ? this.forgetAll() : this.forget(message.string())),
    });
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'disconnect' || status.type === 'reconnect') this.forgetAll();
      }
    })().catch(stopped);
  }

  stop(): void {
    this.announcements?.unsubscribe();
  }

  /** The value held for this organization and key, unless there is none or it is older than the TTL. */
  get(organizationId: string, key: string, now: number): V | undefined {
    const held = this.held.get(organizationId)?.get(key);
    return held !== undefined && held.until > now ? held.value : undefined;
  }

  /** Taken before a read: what the read answers is kept only if nothing was announced meanwhile. */
  mark(): number {
    return this.changes;
  }

  keep(mark: number, organizationId: string, key: string, value: V, readAt: number): void {
    if (this.ttlMs <= 0 || mark !== this.changes) return;
    let values = this.held.get(organizationId);
    // Set again at the end of the Map's order.
    this.held.delete(organizationId);
    if (values === undefined) {
      values = new Map();
      if (this.held.size >= this.maxOrganizations) this.held.delete(this.held.keys().next().value as string);
    }
    this.held.set(organizationId, values);
    values.set(key, { value, until: readAt + this.ttlMs });
  }

  private forget(organizationId: string): void {
    this.changes += 1;
    this.held.delete(organizationId);
  }

  private forgetAll(): void {
    this.changes += 1;
    this.held.clear();
  }
}
