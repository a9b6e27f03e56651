import { performance } from 'node:perf_hooks';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { WebhooksWorkerConfig } from '../webhooks.config';
import { DeliveryQueue } from './delivery-queue';
import { AcquireMode, GRANT_MS, InFlightLeases, LeaseAnswer, paceInterval, PASS_ON_MS, SlotOutcome } from './in-flight-leases';
import { wakeParked } from './parked-jobs.sweeper';

/**
 * How many jobs of one webhook may wait in a worker, per slot, for an attempt of the same worker to hand
 * its slot over. Beyond that they are parked. So one webhook holds at most (1 + this) x its slots of a
 * worker's concurrency, and the others' jobs always find room (the noisy neighbour).
 */
export const WAITING_PER_SLOT = 3;

/*
 * A webhook whose attempts took at most WEBHOOK_QUICK_RECEIVER_MS (a moving average of the slots it held
 * here, with no timeout since), or that has had no attempt here yet, is quick: a job of it that finds no
 * room above waits here anyway, as long as the webhook's attempts here keep ending (none for
 * WEBHOOK_STALL_MS is a stall, and those jobs are parked), because its slots come free every few
 * milliseconds and parking it (a round trip through Redis's delayed set and the queue) would cost more
 * than the wait.
 */
/** How long after a stall sent jobs away to be parked an ended attempt wakes them (they are on their way into the list). */
const STALL_SETTLE_MS = 100;
/**
 * How long a slot that a success freed, with no job of its webhook waiting here, stays with this worker for
 * the webhook's next job before it goes back to Redis: a webhook whose jobs come one or two at a time (a
 * steady trickle of events) then costs Redis no round trip per delivery to take and free its slot.
 */
export const SPARE_MS = 25;
/**
 * How often a job waiting in line for a slot other workers hold asks Redis again: a grant whose message
 * was lost, or slots that came free without a release (a worker died), reach it this late at most.
 */
export const IN_LINE_ASK_MS = 1_000;
/** Weight of the newest attempt in a webhook's moving average. */
const AVERAGE_WEIGHT = 0.2;
/** The moving averages kept at most (one per webhook recently seen); past it they are forgotten and start again. */
const AVERAGES_KEPT = 10_000;

/**
 * A slot held for one attempt, or for the attempts of a job that carries several deliveries, one after
 * another; give it back once, as soon as the requests to the receiver are over, saying how many were made.
 */
export interface HeldSlot {
  release(outcome: SlotOutcome, attempts?: number): Promise<void>;
  /** One of the attempts a carrying job makes on the slot ended, the slot still held: the webhook's attempts keep ending. */
  attempted(): void;
}

/**
 * What asking for a slot came to: the slot; or parked (in Redis's list until a slot comes free); or paced,
 * `waitMs` until the webhook's rate limit lets the job start (it holds no slot meanwhile).
 */
export type SlotAnswer = { slot: HeldSlot } | { parked: true } | { waitMs: number };

/**
 * A slot's lease in Redis: named after the job that took it there, and when (performance.now(), at the
 * latest); `granted` while it is leased for GRANT_MS only (granted to a job in line), until renewed.
 */
interface Lease {
  name: string;
  writtenAt: number;
  granted?: true;
}

/** A job of this worker in its webhook's line in Redis, until a release of any worker grants it a slot. */
interface InLine {
  /** Beyond the room the webhook has in the worker, or over its organization's share: it leaves the line when the webhook's attempts stall. */
  limited: boolean;
  resume: (granted: Lease | undefined) => void;
  /** Asks Redis again every IN_LINE_ASK_MS. */
  askTimer?: NodeJS.Timeout;
}

interface Waiter {
  holder: string;
  /** Beyond the room a webhook has in the worker: sent on its way when the webhook's attempts stall. */
  limited: boolean;
  /** A lease: the slot was handed over (it is the waiter's now); undefined: take one the usual way. */
  resume: (handed: Lease | undefined) => void;
}

interface WebhookSlots {
  webhookId: string;
  /** Attempts of this worker holding a slot (a slot handed over counts from the moment it is). */
  inFlight: number;
  /** Jobs asking Redis for a slot right now. */
  asking: number;
  /** Releases on their way to Redis: until they answer, the count is not forgotten (a handed-over slot lands in it). */
  releasing: number;
  waiting: Waiter[];
  /**
   * Other workers' jobs wait for the webhook's slots too (or this worker's did, refused by Redis): every
   * job here that finds the slots taken then waits in line in Redis, and every freed slot goes back to
   * Redis, which grants it to the job that has waited longest, whichever worker it waits in. Until Redis
   * tells that nobody waits in line any more.
   */
  contended: boolean;
  /** This worker's jobs in the webhook's line in Redis, by job. */
  inLine: Map<string, InLine>;
  /** Slots a success freed with nobody waiting, kept for the next job here until SPARE_MS has passed (their leases in Redis stand). */
  spare: Lease[];
  /** Gives the spare slots back to Redis. */
  spareTimer?: NodeJS.Timeout;
  /** The webhook's least ms between starts, as the last job to ask read it (0 for no rate limit). */
  intervalMs: number;
  /** When an attempt of the webhook here last ended (performance.now()). */
  lastEnded: number;
  /** Watches for a stall while jobs wait beyond the room. */
  stallTimer?: NodeJS.Timeout;
  /** Set while the watch asks Redis whether another worker freed a slot of the webhook lately. */
  stallAsking?: boolean;
  /** Jobs the last stall sent away to be parked, and when: woken again once an attempt here ends. */
  stalledAway: number;
  stalledAt: number;
}

/**
 * The worker's side of the per-webhook cap. The leases in Redis are the truth across workers; this only
 * saves the churn when one worker already holds all of a webhook's slots (a backlog, a burst): instead
 * of asking Redis, being parked in the delayed set and woken and fetched again, the job waits here and an
 * attempt that ends hands its slot straight to it in the same round trip that frees it, before any parked
 * job of the webhook (a parked job is woken by a release that finds nobody waiting here, or by the sweep).
 *
 * It also keeps each organization to WEBHOOK_MAX_IN_FLIGHT_PER_ORG of this worker's slots, counting its jobs
 * in flight, waiting here and asking Redis: a job beyond that is parked in its webhook's list without
 * asking for a slot, so many slow webhooks of one organization leave the other organizations' jobs room.
 * Only a job of a quick webhook with an attempt here waits beyond it, for a slot handed over while the
 * webhook's attempts keep ending: its organization's attempts in flight stay within the share, and the
 * worker's slots those jobs hold come back at the webhook's pace, or at once when it stalls.
 */
@Injectable()
export class WorkerSlots implements OnModuleInit {
  private readonly logger = new Logger('WorkerSlots');
  private readonly webhooks = new Map<string, WebhookSlots>();
  /** Jobs of each organization between taking and giving back a slot here. */
  private readonly organizations = new Map<string, number>();
  /** Of those, the ones asking Redis for a slot or holding one. */
  private readonly flying = new Map<string, number>();
  /**
   * The webhooks whose last release this worker sent Redis was a success, so the receiver's count of timeouts
   * (the breaker) is clear: a success may pass its slot on, or keep it spare, without telling Redis. Kept apart
   * from a webhook's count here, which is forgotten whenever the webhook has nothing here.
   */
  private readonly breakerClear = new Set<string>();
  /** Each webhook's moving average of the ms its slots were held here; Infinity after a timeout. */
  private readonly holdMs = new Map<string, number>();
  private readonly max: number;
  private readonly maxPerOrganization: number;
  private readonly quickMs: number;
  private readonly stallMs: number;
  private closing = false;

  constructor(
    private readonly leases: InFlightLeases,
    private readonly deliveryQueue: DeliveryQueue,
    config: WebhooksWorkerConfig,
  ) {
    this.max = config.WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK;
    this.maxPerOrganization = config.WEBHOOK_MAX_IN_FLIGHT_PER_ORG;
    this.quickMs = config.WEBHOOK_QUICK_RECEIVER_MS;
    this.stallMs = config.WEBHOOK_STALL_MS;
  }

  /** Hears of grants to this worker's jobs in line, and of webhooks whose slots are wanted by other workers' jobs. */
  async onModuleInit(): Promise<void> {
    await this.leases.listen({
      granted: (webhookId, holder) => this.grant(webhookId, holder),
      contended: (webhookId) => {
        const slots = this.webhooks.get(webhookId);
        if (slots) this.contend(webhookId, slots);
      },
    });
  }

  /**
   * A slot for this attempt; or parked when the webhook's slots are taken or the organization holds its
   * share of this worker (the job is then in Redis's list and must go to the delayed set); or paced by the
   * webhook's `rateLimit` (deliveries per second, null for none). `onWait` is called when the job waits
   * here instead.
   */
  async take(webhookId: string, organizationId: string, holder: string, rateLimit: number | null, onWait?: () => void): Promise<SlotAnswer> {
    const overShare = (this.organizations.get(organizationId) ?? 0) >= this.maxPerOrganization;
    if (overShare && !this.quick(webhookId)) return this.park(webhookId, holder);
    this.count(organizationId, 1);
    let answer: SlotAnswer | undefined;
    try {
      answer = await this.takeForWebhook(webhookId, organizationId, holder, paceInterval(rateLimit), overShare, onWait);
    } finally {
      if (!answer || !('slot' in answer)) this.count(organizationId, -1);
    }
    if (!('slot' in answer)) return answer;
    const taken = answer.slot;
    let released: Promise<void> | undefined;
    const done = () => {
      this.count(organizationId, -1);
      this.fly(organizationId, -1);
    };
    return { slot: { release: (outcome, attempts) => (released ??= taken.release(outcome, attempts).finally(done)), attempted: () => taken.attempted() } };
  }

  /**
   * Waits here for a slot handed over by an attempt of this worker when the webhook's slots are taken here
   * (or being asked for), within the room above; a job over its organization's share, or beyond that room,
   * waits only for a quick webhook and only until it stalls. A job over its share that gets no slot handed
   * is parked without asking Redis, so the share bounds what the organization has in flight here; unless it is
   * the only job of a quick webhook here and the organization's attempts in flight here (and asks) are fewer
   * than its share: the jobs of its other quick webhooks, waiting here beyond the share, then do not keep this
   * one from starting (it would be parked and woken over and over). A job that
   * Redis refuses while attempts of the webhook are in flight here (other workers hold the rest of its slots)
   * waits for one of them the same way instead of being parked, so the workers that share a webhook keep
   * their slots busy without a round trip through the delayed set for each job.
   */
  private async takeForWebhook(webhookId: string, organizationId: string, holder: string, intervalMs: number, overShare: boolean, onWait?: () => void): Promise<SlotAnswer> {
    let slots = this.slotsOf(webhookId, intervalMs);
    let waited = false;
    const waitFor = async (wait: Promise<Lease | undefined>): Promise<SlotAnswer | undefined> => {
      if (!waited) onWait?.();
      waited = true;
      const handed = await wait;
      if (handed) {
        this.fly(organizationId, 1);
        return { slot: this.held(webhookId, slots, handed) };
      }
      // Sent on its way with everyone else waiting (a stall, a refusal, nothing left in flight, contention): the webhook's
      // count here may have been forgotten meanwhile, and what this job does next must count in the one now kept.
      slots = this.slotsOf(webhookId, intervalMs);
      return undefined;
    };
    const waitHere = (limited: boolean) => waitFor(this.wait(slots, holder, limited));
    /** Asks Redis; a job put in line waits there for a slot, and takes one the usual way should it leave the line (closing). */
    const askOrWait = async (otherwise: AcquireMode): Promise<SlotAnswer | 'refused' | undefined> => {
      const answer = await this.ask(webhookId, organizationId, holder, slots, intervalMs, this.modeFor(webhookId, intervalMs, otherwise));
      if (answer !== 'inLine') return answer;
      slots = this.slotsOf(webhookId, intervalMs);
      return waitFor(this.waitInLine(webhookId, slots, holder, overShare || slots.inLine.size >= WAITING_PER_SLOT * this.max));
    };
    const mayFly = this.mayFly(webhookId, organizationId, overShare, slots);
    const spare = !mayFly || slots.contended ? undefined : this.spareOf(webhookId, slots);
    if (spare) {
      slots.inFlight += 1;
      this.fly(organizationId, 1);
      return { slot: this.held(webhookId, slots, spare) };
    }
    // Jobs already asking count as holding: a burst of a webhook's jobs waits here behind its first `max`
    // instead of asking Redis all at once and being parked, all but those.
    const held = slots.inFlight + slots.asking;
    const room = !overShare && slots.waiting.length < WAITING_PER_SLOT * this.max;
    if (!this.closing && !slots.contended && held > 0 && (held >= this.max || !mayFly) && (room || this.quick(webhookId))) {
      const handed = await waitHere(!room);
      if (handed) return handed;
    }
    // Asked again: a job that waited above comes back to a count that may have changed meanwhile.
    if (!this.mayFly(webhookId, organizationId, overShare, slots) && !(slots.contended && this.modeFor(webhookId, intervalMs, 'park') === 'want')) {
      this.releaseStranded(slots);
      this.forgetIfIdle(webhookId, slots);
      return this.park(webhookId, holder);
    }
    const answer = await askOrWait(slots.inFlight === 0 ? 'park' : 'refuse');
    if (answer && answer !== 'refused') return answer;
    const roomNow = slots.waiting.length < WAITING_PER_SLOT * this.max;
    if (answer === 'refused' && !this.closing && !slots.contended && slots.inFlight > 0 && (roomNow || this.quick(webhookId))) {
      const handed = await waitHere(!roomNow);
      if (handed) return handed;
    }
    // Refused again, or sent out of the line (a stall, closing): parked, unless a slot is free (or was granted) by now.
    const last = await this.ask(webhookId, organizationId, holder, slots, intervalMs, 'park');
    return last === 'refused' || last === 'inLine' ? { parked: true } : last;
  }

  /**
   * Whether the job may take a slot of its own (spare, or asked of Redis) rather than wait for one handed
   * over: within the organization's share; or, over it, for a quick webhook with fewer than its slots here
   * while fewer of the organization's jobs here hold or ask for a slot than the share. The jobs over the share
   * are then the quick webhooks' waiting here (see above), and counting them would hold each webhook to the
   * slots it had when the share filled: a backlog of five quick webhooks of one organization would go out one
   * request at a time each.
   */
  private mayFly(webhookId: string, organizationId: string, overShare: boolean, slots: WebhookSlots): boolean {
    if (!overShare) return true;
    return this.quick(webhookId) && slots.inFlight + slots.asking < this.max && (this.flying.get(organizationId) ?? 0) < this.maxPerOrganization;
  }

  /**
   * How a job that may find the slots taken asks Redis: in line (`want`) for a webhook without a rate limit
   * whose attempts here are quick, unless the worker is closing; else `otherwise`. Like the jobs waiting here
   * for a slot passed on, the ones beyond the webhook's room here or over the organization's share leave the
   * line when its attempts stall.
   */
  private modeFor(webhookId: string, intervalMs: number, otherwise: AcquireMode): AcquireMode {
    return !this.closing && intervalMs === 0 && this.quick(webhookId) ? 'want' : otherwise;
  }

  /**
   * In the webhook's line in Redis until a release of any worker grants the job a slot (its lease, for
   * GRANT_MS until the attempt renews it), asking again every IN_LINE_ASK_MS; undefined when the worker
   * closes, or, for a `limited` one, when the webhook's attempts stall.
   */
  private waitInLine(webhookId: string, slots: WebhookSlots, holder: string, limited: boolean): Promise<Lease | undefined> {
    this.contend(webhookId, slots);
    return new Promise<Lease | undefined>((resume) => {
      const entry: InLine = { limited, resume };
      slots.inLine.set(holder, entry);
      if (limited) this.watchForStall(slots);
      const askAgain = async () => {
        const askedAt = performance.now();
        const answer = await this.leases.acquire(webhookId, holder, 0, 'want').catch(() => undefined);
        if (slots.inLine.get(holder) !== entry) return;
        if (answer?.granted) this.leaveLine(slots, holder, entry, { name: holder, writtenAt: askedAt });
        else entry.askTimer = setTimeout(askAgain, IN_LINE_ASK_MS);
      };
      entry.askTimer = setTimeout(askAgain, IN_LINE_ASK_MS);
    });
  }

  /** A release granted a slot to this worker's job in line: it starts. A grant to a job no longer in line is its already (it asked again and got it) or lapses. */
  private grant(webhookId: string, holder: string): void {
    const slots = this.webhooks.get(webhookId);
    const entry = slots?.inLine.get(holder);
    if (slots && entry) this.leaveLine(slots, holder, entry, { name: holder, writtenAt: performance.now(), granted: true });
  }

  /** Takes the job out of the line here and sends it on: with a slot (in flight from now), or without one to take one the usual way. */
  private leaveLine(slots: WebhookSlots, holder: string, entry: InLine, lease?: Lease): void {
    slots.inLine.delete(holder);
    clearTimeout(entry.askTimer);
    if (lease) slots.inFlight += 1;
    entry.resume(lease);
  }

  /**
   * Jobs of other workers wait for the webhook's slots: the jobs waiting here for a slot passed on go in
   * line in Redis with them, the spare slots go back, and every slot freed from now on goes through Redis.
   */
  private contend(webhookId: string, slots: WebhookSlots): void {
    if (slots.contended || this.closing) return;
    slots.contended = true;
    for (const waiter of slots.waiting.splice(0)) waiter.resume(undefined);
    void this.giveBackSpare(webhookId, slots);
  }

  /** What Redis told of the webhook's line: while anyone waits in it the slots are contended, and not once nobody does. */
  private noteLine(webhookId: string, slots: WebhookSlots, wanting: number | undefined): void {
    if (wanting === undefined) return;
    if (wanting > 0) this.contend(webhookId, slots);
    else slots.contended = false;
  }

  /**
   * Asks Redis for a slot: granted, paced, parked, or `refused` when it was not to be parked. A job that gets
   * none and does not stay to wait lets the next job waiting here ask for itself, rather than wait for an
   * attempt of this worker that may never come.
   */
  private async ask(webhookId: string, organizationId: string, holder: string, slots: WebhookSlots, intervalMs: number, mode: AcquireMode): Promise<SlotAnswer | 'refused' | 'inLine'> {
    slots.asking += 1;
    this.fly(organizationId, 1);
    const askedAt = performance.now();
    let answer: LeaseAnswer | undefined;
    try {
      answer = await this.leases.acquire(webhookId, holder, intervalMs, mode);
    } finally {
      slots.asking -= 1;
      if (answer?.granted) slots.inFlight += 1;
      else {
        this.fly(organizationId, -1);
        if (!answer || 'waitMs' in answer || ('parked' in answer && answer.parked)) {
          slots.waiting.shift()?.resume(undefined);
          this.releaseStranded(slots);
          this.forgetIfIdle(webhookId, slots);
        }
      }
    }
    this.noteLine(webhookId, slots, answer.wanting);
    if (answer.granted) return { slot: this.held(webhookId, slots, { name: holder, writtenAt: askedAt }) };
    if ('waitMs' in answer) return { waitMs: answer.waitMs };
    if ('inLine' in answer) return 'inLine';
    return answer.parked ? { parked: true } : 'refused';
  }

  /** In the webhook's line here until a slot is handed over (its lease) or not (closing, no handover, or a stall of a `limited` one). */
  private wait(slots: WebhookSlots, holder: string, limited: boolean): Promise<Lease | undefined> {
    return new Promise<Lease | undefined>((resume) => {
      slots.waiting.push({ holder, limited, resume });
      if (limited) this.watchForStall(slots);
    });
  }

  /**
   * While jobs wait beyond the room, checks that the webhook's attempts here keep ending: once none has for
   * WEBHOOK_STALL_MS (the receiver slowed down or hangs), those jobs leave the line (to be parked) and leave
   * the worker's slots to others. One timer per webhook, whatever the number waiting.
   */
  private watchForStall(slots: WebhookSlots): void {
    if (slots.stallTimer || slots.stallAsking) return;
    const check = async () => {
      slots.stallTimer = undefined;
      if (!this.limitedWaiting(slots)) return;
      if (performance.now() - slots.lastEnded >= this.stallMs && slots.inLine.size > 0) {
        // Jobs in line get the slots every worker frees: attempts of the webhook that end in another worker (which
        // may hold all of its slots, one carrying job for up to a second each) are no stall.
        slots.stallAsking = true;
        const freedAgo = await this.leases.freedAgo(slots.webhookId, this.stallMs).catch(() => undefined);
        slots.stallAsking = false;
        if (freedAgo !== undefined) slots.lastEnded = Math.max(slots.lastEnded, performance.now() - freedAgo);
        if (!this.limitedWaiting(slots)) return;
      }
      const quietMs = performance.now() - slots.lastEnded;
      if (quietMs < this.stallMs) {
        slots.stallTimer = setTimeout(() => void check(), this.stallMs - quietMs);
        return;
      }
      const inLine = [...slots.inLine].filter(([, entry]) => entry.limited);
      const stalled = slots.waiting.filter((waiter) => waiter.limited);
      slots.waiting = slots.waiting.filter((waiter) => !waiter.limited);
      slots.stalledAway += stalled.length + inLine.length;
      slots.stalledAt = performance.now();
      for (const waiter of stalled) waiter.resume(undefined);
      // They leave the line as they are parked (or take the slot granted them meanwhile).
      for (const [holder, entry] of inLine) this.leaveLine(slots, holder, entry);
    };
    slots.stallTimer = setTimeout(() => void check(), Math.max(1, this.stallMs - (performance.now() - slots.lastEnded)));
  }

  /** Whether jobs beyond the webhook's room wait here or in line: the ones a stall sends away. */
  private limitedWaiting(slots: WebhookSlots): boolean {
    return slots.waiting.some((waiter) => waiter.limited) || [...slots.inLine.values()].some((entry) => entry.limited);
  }

  /**
   * Only an attempt of this worker can hand a waiting job its slot: when the webhook has none here, in flight
   * or asking, every job still waiting goes its own way (asks Redis, or is parked) instead of waiting for good.
   */
  private releaseStranded(slots: WebhookSlots): void {
    if (slots.inFlight + slots.asking > 0) return;
    for (const waiter of slots.waiting.splice(0)) waiter.resume(undefined);
  }

  private async park(webhookId: string, holder: string): Promise<SlotAnswer> {
    await this.leases.park(webhookId, holder);
    return { parked: true };
  }

  /**
   * Whether the webhook's attempts here have been quick (see WEBHOOK_QUICK_RECEIVER_MS). One not seen yet is, so that
   * the first burst of a new webhook waits too; if it hangs, its first attempts stall and the jobs are parked.
   */
  private quick(webhookId: string): boolean {
    return (this.holdMs.get(webhookId) ?? 0) <= this.quickMs;
  }

  private observe(webhookId: string, heldMs: number, outcome: SlotOutcome): void {
    const last = this.holdMs.get(webhookId);
    const next = outcome === 'timeout' ? Infinity : last === undefined || last === Infinity ? heldMs : last + AVERAGE_WEIGHT * (heldMs - last);
    if (last === undefined && this.holdMs.size >= AVERAGES_KEPT) this.holdMs.clear();
    this.holdMs.set(webhookId, next);
  }

  /** Stops waiting: every job waiting here takes a slot the usual way (or is parked), so the worker can close. */
  close(): void {
    this.closing = true;
    for (const [webhookId, slots] of this.webhooks) {
      clearTimeout(slots.stallTimer);
      for (const waiter of slots.waiting.splice(0)) waiter.resume(undefined);
      for (const [holder, entry] of slots.inLine) this.leaveLine(slots, holder, entry);
      void this.giveBackSpare(webhookId, slots);
    }
  }

  private held(webhookId: string, slots: WebhookSlots, lease: Lease): HeldSlot {
    const since = performance.now();
    let released: Promise<void> | undefined;
    // A slot granted to a job in line is leased for GRANT_MS: an attempt still going halfway through renews it for an attempt's length.
    const renewal = lease.granted
      ? setTimeout(() => {
          this.leases.renew(webhookId, lease.name).catch((error: unknown) => this.logger.warn({ err: error, webhookId }, 'could not renew a granted in-flight slot'));
        }, GRANT_MS / 2)
      : undefined;
    return {
      // A job carrying deliveries holds its slot up to CARRY_BUDGET_MS: its attempts ending one by one show the webhook is not stalled.
      attempted: () => void (slots.lastEnded = performance.now()),
      release: (outcome, attempts = 1) => {
        if (released) return released;
        clearTimeout(renewal);
        // What the webhook's attempts take each, to judge it quick or not.
        this.observe(webhookId, (performance.now() - since) / Math.max(1, attempts), outcome);
        return (released = this.release(webhookId, slots, lease, outcome));
      },
    };
  }

  /**
   * Frees the slot, handing it to a job waiting here when Redis allows, else waking a parked job; a slot that
   * cannot be freed lapses by itself. A success passes its slot on to the job waiting here without asking
   * Redis (the lease there stays as it is) while the lease is young enough to outlast the next attempt and
   * neither a rate limit nor the breaker needs Redis to hear of it: a busy webhook's slots then cost Redis a
   * round trip every PASS_ON_MS, not one per delivery.
   */
  private async release(webhookId: string, slots: WebhookSlots, lease: Lease, outcome: SlotOutcome): Promise<void> {
    slots.inFlight -= 1;
    slots.lastEnded = performance.now();
    const next = this.closing ? undefined : slots.waiting.shift();
    const passOn =
      !this.closing &&
      !slots.contended &&
      !lease.granted &&
      outcome === 'success' &&
      this.breakerClear.has(webhookId) &&
      slots.intervalMs === 0 &&
      slots.lastEnded - lease.writtenAt < PASS_ON_MS;
    if (next && passOn) {
      slots.inFlight += 1;
      next.resume(lease);
      this.wakeStalledAway(webhookId, slots);
      return;
    }
    if (passOn && slots.stalledAway === 0) {
      slots.spare.push(lease);
      slots.spareTimer ??= setTimeout(() => void this.giveBackSpare(webhookId, slots), SPARE_MS);
      return;
    }
    await this.free(webhookId, slots, lease, outcome, next);
  }

  /**
   * Frees the slot in Redis, which hands it to `next` (a job waiting here) when it can, else wakes a parked
   * job of the webhook; a slot that cannot be freed lapses by itself.
   */
  private async free(webhookId: string, slots: WebhookSlots, lease: Lease, outcome: SlotOutcome, next?: Waiter): Promise<void> {
    slots.releasing += 1;
    const sentAt = performance.now();
    try {
      const { handed, woken, granted, wanting } = await this.leases.release(webhookId, lease.name, outcome, slots.intervalMs, next?.holder);
      if (outcome !== 'other') this.noteBreaker(webhookId, outcome === 'success');
      if (handed) slots.inFlight += 1;
      next?.resume(handed ? { name: next.holder, writtenAt: sentAt } : undefined);
      if (granted) this.grant(webhookId, granted);
      this.noteLine(webhookId, slots, wanting);
      if (!handed) this.releaseStranded(slots);
      if (woken) await this.deliveryQueue.promote(woken);
      this.wakeStalledAway(webhookId, slots);
    } catch (error) {
      next?.resume(undefined);
      this.releaseStranded(slots);
      this.logger.warn({ err: error, webhookId }, 'could not free an in-flight slot; it lapses at its expiry');
    } finally {
      slots.releasing -= 1;
      this.forgetIfIdle(webhookId, slots);
    }
  }

  /**
   * An attempt ended after a stall had sent the jobs waiting beyond the room to be parked: the stall is over
   * (a slow first burst looks like one), so those jobs are woken at once: a release hands its slot to a job
   * waiting here first, so they would otherwise stay parked behind every newer job until the webhook goes quiet.
   * Not before they have had time to be parked.
   */
  private wakeStalledAway(webhookId: string, slots: WebhookSlots): void {
    if (slots.stalledAway === 0 || this.closing || performance.now() - slots.stalledAt < STALL_SETTLE_MS) return;
    const count = slots.stalledAway;
    slots.stalledAway = 0;
    wakeParked(this.leases, this.deliveryQueue, webhookId, count).catch((error: unknown) => this.logger.warn({ err: error, webhookId }, 'could not wake the jobs a stall parked; the sweep does'));
  }

  /** A spare slot of the webhook young enough to outlast the next attempt; older ones go back to Redis. */
  private spareOf(webhookId: string, slots: WebhookSlots): Lease | undefined {
    while (slots.spare.length > 0) {
      const lease = slots.spare.pop() as Lease;
      if (performance.now() - lease.writtenAt < PASS_ON_MS) return lease;
      void this.free(webhookId, slots, lease, 'success');
    }
    return undefined;
  }

  /** The webhook's spare slots go back to Redis, each waking a parked job of the webhook if there is one. */
  private async giveBackSpare(webhookId: string, slots: WebhookSlots): Promise<void> {
    clearTimeout(slots.spareTimer);
    slots.spareTimer = undefined;
    await Promise.all(slots.spare.splice(0).map((lease) => this.free(webhookId, slots, lease, 'success')));
  }

  private noteBreaker(webhookId: string, clear: boolean): void {
    if (!clear) this.breakerClear.delete(webhookId);
    else if (!this.breakerClear.has(webhookId)) {
      if (this.breakerClear.size >= AVERAGES_KEPT) this.breakerClear.clear();
      this.breakerClear.add(webhookId);
    }
  }

  private count(organizationId: string, change: number): void {
    tally(this.organizations, organizationId, change);
  }

  private fly(organizationId: string, change: number): void {
    tally(this.flying, organizationId, change);
  }

  /** The webhook's count here (made when there is none), with the rate limit the asking job read. */
  private slotsOf(webhookId: string, intervalMs: number): WebhookSlots {
    let slots = this.webhooks.get(webhookId);
    if (!slots) {
      slots = {
        webhookId,
        inFlight: 0,
        asking: 0,
        releasing: 0,
        waiting: [],
        contended: false,
        inLine: new Map(),
        spare: [],
        intervalMs,
        lastEnded: performance.now(),
        stalledAway: 0,
        stalledAt: 0,
      };
      this.webhooks.set(webhookId, slots);
    }
    slots.intervalMs = intervalMs;
    return slots;
  }

  private forgetIfIdle(webhookId: string, slots: WebhookSlots): void {
    const quiet =
      slots.inFlight === 0 && slots.asking === 0 && slots.releasing === 0 && slots.waiting.length === 0 && slots.inLine.size === 0 && slots.spare.length === 0;
    if (quiet && this.webhooks.get(webhookId) === slots) {
      this.webhooks.delete(webhookId);
    }
  }
}

function tally(counts: Map<string, number>, key: string, change: number): void {
  const count = (counts.get(key) ?? 0) + change;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}
