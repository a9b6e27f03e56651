import { Injectable, Logger } from '@nestjs/common';
import { WebhooksWorkerConfig } from '../webhooks.config';
import { DeliveryQueue } from './delivery-queue';
import { InFlightLeases, paceInterval, SlotOutcome } from './in-flight-leases';

/**
 * How many jobs of one webhook may wait in a worker, per slot, for an attempt of the same worker to hand
 * its slot over. Beyond that they are parked. So one webhook holds at most (1 + this) x its slots of a
 * worker's concurrency, and the others' jobs always find room (the noisy neighbour).
 */
export const WAITING_PER_SLOT = 3;

/** A slot held for one attempt; give it back once, as soon as the request to the receiver is over. */
export interface HeldSlot {
  release(outcome: SlotOutcome): Promise<void>;
}

/**
 * What asking for a slot came to: the slot; or parked (in Redis's list until a slot comes free); or paced,
 * `waitMs` until the webhook's rate limit lets the job start (it holds no slot meanwhile).
 */
export type SlotAnswer = { slot: HeldSlot } | { parked: true } | { waitMs: number };

interface Waiter {
  holder: string;
  /** True: the slot was handed over (its lease is already the waiter's); false: take one the usual way. */
  resume: (handed: boolean) => void;
}

interface WebhookSlots {
  /** Attempts of this worker holding a slot (a slot handed over counts from the moment it is). */
  inFlight: number;
  /** Jobs asking Redis for a slot right now. */
  asking: number;
  waiting: Waiter[];
  /** The webhook's least ms between starts, as the last job to ask read it (0 for no rate limit). */
  intervalMs: number;
}

/**
 * The worker's side of the per-webhook cap. The leases in Redis are the truth across workers; this only
 * saves the churn when one worker already holds all of a webhook's slots (a backlog, a burst): instead
 * of asking Redis, being parked in the delayed set and woken and fetched again, the job waits here and an
 * attempt that ends hands its slot straight to it in the same round trip that frees it. Parked jobs keep
 * their turn: a slot is handed over only while none of the webhook's jobs is parked or woken.
 *
 * It also keeps each organization to WEBHOOK_MAX_IN_FLIGHT_PER_ORG of this worker's slots, counting its jobs
 * in flight, waiting here and asking Redis: a job beyond that is parked in its webhook's list without
 * asking for a slot, so many slow webhooks of one organization leave the other organizations' jobs room.
 */
@Injectable()
export class WorkerSlots {
  private readonly logger = new Logger('WorkerSlots');
  private readonly webhooks = new Map<string, WebhookSlots>();
  /** Jobs of each organization between taking and giving back a slot here. */
  private readonly organizations = new Map<string, number>();
  private readonly max: number;
  private readonly maxPerOrganization: number;
  private closing = false;

  constructor(
    private readonly leases: InFlightLeases,
    private readonly deliveryQueue: DeliveryQueue,
    config: WebhooksWorkerConfig,
  ) {
    this.max = config.WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK;
    this.maxPerOrganization = config.WEBHOOK_MAX_IN_FLIGHT_PER_ORG;
  }

  /**
   * A slot for this attempt; or parked when the webhook's slots are taken or the organization holds its
   * share of this worker (the job is then in Redis's list and must go to the delayed set); or paced by the
   * webhook's `rateLimit` (deliveries per second, null for none). `onWait` is called when the job waits
   * here instead.
   */
  async take(webhookId: string, organizationId: string, holder: string, rateLimit: number | null, onWait?: () => void): Promise<SlotAnswer> {
    if ((this.organizations.get(organizationId) ?? 0) >= this.maxPerOrganization) {
      await this.leases.park(webhookId, holder);
      return { parked: true };
    }
    this.count(organizationId, 1);
    let answer: SlotAnswer | undefined;
    try {
      answer = await this.takeForWebhook(webhookId, holder, paceInterval(rateLimit), onWait);
    } finally {
      if (!answer || !('slot' in answer)) this.count(organizationId, -1);
    }
    if (!('slot' in answer)) return answer;
    const taken = answer.slot;
    let released: Promise<void> | undefined;
    return { slot: { release: (outcome) => (released ??= taken.release(outcome).finally(() => this.count(organizationId, -1))) } };
  }

  private async takeForWebhook(webhookId: string, holder: string, intervalMs: number, onWait?: () => void): Promise<SlotAnswer> {
    const slots = this.slotsOf(webhookId);
    slots.intervalMs = intervalMs;
    if (!this.closing && slots.inFlight >= this.max && slots.waiting.length < WAITING_PER_SLOT * this.max) {
      onWait?.();
      const handed = await new Promise<boolean>((resume) => slots.waiting.push({ holder, resume }));
      if (handed) return { slot: this.held(webhookId, holder, slots) };
    }
    slots.asking += 1;
    let acquired = false;
    try {
      const answer = await this.leases.acquire(webhookId, holder, intervalMs);
      acquired = answer.granted;
      if (!answer.granted) return answer.waitMs === undefined ? { parked: true } : { waitMs: answer.waitMs };
    } finally {
      slots.asking -= 1;
      if (acquired) slots.inFlight += 1;
      else this.forgetIfIdle(webhookId, slots);
    }
    return { slot: this.held(webhookId, holder, slots) };
  }

  /** Stops waiting: every job waiting here takes a slot the usual way (or is parked), so the worker can close. */
  close(): void {
    this.closing = true;
    for (const slots of this.webhooks.values()) for (const waiter of slots.waiting.splice(0)) waiter.resume(false);
  }

  private held(webhookId: string, holder: string, slots: WebhookSlots): HeldSlot {
    let released: Promise<void> | undefined;
    return { release: (outcome) => (released ??= this.release(webhookId, holder, slots, outcome)) };
  }

  /** Frees the slot, handing it to a job waiting here when Redis allows, else waking a parked job; a slot that cannot be freed lapses by itself. */
  private async release(webhookId: string, holder: string, slots: WebhookSlots, outcome: SlotOutcome): Promise<void> {
    slots.inFlight -= 1;
    const next = this.closing ? undefined : slots.waiting.shift();
    try {
      const { handed, woken } = await this.leases.release(webhookId, holder, outcome, slots.intervalMs, next?.holder);
      if (handed) slots.inFlight += 1;
      next?.resume(handed);
      if (woken) await this.deliveryQueue.promote(woken);
    } catch (error) {
      next?.resume(false);
      this.logger.warn({ err: error, webhookId }, 'could not free an in-flight slot; it lapses at its expiry');
    } finally {
      this.forgetIfIdle(webhookId, slots);
    }
  }

  private count(organizationId: string, change: number): void {
    const held = (this.organizations.get(organizationId) ?? 0) + change;
    if (held > 0) this.organizations.set(organizationId, held);
    else this.organizations.delete(organizationId);
  }

  private slotsOf(webhookId: string): WebhookSlots {
    let slots = this.webhooks.get(webhookId);
    if (!slots) {
      slots = { inFlight: 0, asking: 0, waiting: [], intervalMs: 0 };
      this.webhooks.set(webhookId, slots);
    }
    return slots;
  }

  private forgetIfIdle(webhookId: string, slots: WebhookSlots): void {
    if (slots.inFlight === 0 && slots.asking === 0 && slots.waiting.length === 0 && this.webhooks.get(webhookId) === slots) this.webhooks.delete(webhookId);
  }
}
