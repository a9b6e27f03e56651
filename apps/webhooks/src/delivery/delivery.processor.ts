import { performance } from 'node:perf_hooks';
import { Injectable } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { EventStoreRepository } from '../event-store/event-store.repository';
import { SecretCipher } from '../secrets/secret-cipher';
import { signingSecrets } from '../secrets/signing-secrets';
import { WebhooksConfig } from '../webhooks.config';
import { DeliveriesRepository } from '../webhooks/deliveries.repository';
import { wantsEvent } from '../dispatch/webhook-subscription';
import { SealedWebhookRecord } from '../webhooks/webhook-record';
import { OperationalEvents } from '../webhooks/operational-events';
import { attemptNumber, CarriedDelivery, DELIVERY_ATTEMPTS, deliveriesOf, DeliveryJob, deliveryJob, deliveryJobId, retryDelay } from './delivery-job';
import { DeliveryQueue } from './delivery-queue';
import { DeliveryWebhooks, WEBHOOK_READ_FRESH_MS } from './delivery-webhooks';
import { SlotOutcome } from './in-flight-leases';
import { HeldSlot, WorkerSlots } from './worker-slots';
import { attemptDuration, deliveryOutcomes } from './delivery-metrics';
import { attemptRecord, RECORDED_RESPONSE_LIMIT, WebhookOutcome, WebhookSender } from './webhook-sender';

/** A failed attempt; thrown so BullMQ schedules the next one, or gives up after the last. */
export class DeliveryFailedError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'DeliveryFailedError';
  }
}

export type AttemptResult = 'delivered' | 'skipped';

/**
 * The webhook is read before the job takes its slot (the slot's step needs its rate limit), so the slot
 * is held only for the request; a read older than WEBHOOK_READ_FRESH_MS when the slot comes (the job
 * waited for it) is made again, so a change to the webhook reaches an attempt no later than it did when
 * the read came after the slot.
 */
interface WebhookRead {
  webhook: Promise<SealedWebhookRecord | undefined>;
  startedAt: number;
}

/** How soon a job is tried again when our own storage failed, which is not the receiver's fault. */
export const STORAGE_RETRY_MS = 1_000;
/**
 * How far ahead a job that finds its webhook's slots taken is parked in the delayed set: a freed slot or
 * the sweep wakes it long before, so it costs the workers nothing while it waits; this only bounds the
 * wait should the parking lists in Redis be lost.
 */
export const PARK_MS = 10 * 60_000;

/**
 * How long a job that carries several deliveries keeps starting them on its slot; the ones left, and every
 * one after a timeout, go on as jobs of their own. So the slot is held at most this plus one attempt.
 */
export const CARRY_BUDGET_MS = 1_000;

/** What came of one delivery a job carried: sent (`outcome`) or not wanted any more, and whether it was recorded. */
interface CarriedResult {
  delivery: CarriedDelivery;
  outcome?: WebhookOutcome;
  recorded: boolean;
}

/**
 * Whether a job may still be sent to this webhook. The fan-out's deliveries stop when the webhook is
 * disabled or unsubscribes (from the kind, or from the event's table); a redelivery or recovery the
 * customer asked for goes out regardless.
 */
function stillWanted(webhook: SealedWebhookRecord | undefined, job: DeliveryJob, delivery: Pick<DeliveryJob, 'eventType' | 'tableId'> = job): webhook is SealedWebhookRecord {
  if (!webhook || webhook.organization_id !== job.organizationId) return false;
  return job.explicit === true || (webhook.active && wantsEvent(webhook, { eventType: delivery.eventType, tableId: delivery.tableId ?? null }));
}

/**
 * One attempt of one job: re-reads the webhook, signs and sends, records the attempt with its series'
 * progress, and moves the webhook between active and failed.
 */
@Injectable()
export class DeliveryProcessor {
  constructor(
    private readonly slots: WorkerSlots,
    private readonly webhooks: DeliveryWebhooks,
    private readonly deliveries: DeliveriesRepository,
    private readonly events: EventStoreRepository,
    private readonly cipher: SecretCipher,
    private readonly sender: WebhookSender,
    private readonly config: WebhooksConfig,
    private readonly operational: OperationalEvents,
    private readonly queue: DeliveryQueue,
  ) {}

  /**
   * Only the receiver's failures use up its six attempts. A job that its webhook's rate limit holds back
   * waits in the delayed set until the start it reserved. A job that finds its webhook's in-flight slots
   * taken waits in this worker for one of its attempts to hand a slot over when this worker holds them all
   * (a few per slot at most), or else is parked in the delayed set until a slot is free for it; when reading or recording fails on our side (Postgres
   * restarting, say), the job goes back to wait a moment. Neither changes its attempt count or schedule.
   */
  async attempt(job: Job<DeliveryJob>, token?: string): Promise<AttemptResult> {
    const holder = job.id ?? deliveryJobId(job.data);
    let slot: HeldSlot | undefined;
    const read = this.readWebhook(job.data);
    // Set while the job carries deliveries besides its own.
    let owed = job.data.more?.length ? this.owedOf(job) : undefined;
    owed?.catch(() => undefined);
    try {
      // A job queued for a series opened before may find it finished by the job that had it.
      if (job.data.recheck && job.data.seriesId && !(await this.events.stillOwed([job.data.seriesId])).has(job.data.seriesId)) {
        deliveryOutcomes.inc({ outcome: 'skipped' });
        return 'skipped';
      }
      // The rate limit is asked for with the slot, in the same round trip, so it is read first.
      const rateLimit = (await read.webhook)?.rate_limit ?? null;
      // A rate limit paces every start: the deliveries a job carries go on as jobs of their own.
      if (rateLimit && owed) {
        await this.handOn(job, await owed);
        owed = undefined;
      }
      // A job put aside is counted once: as waiting when it waited here first (and was parked after all), else as parked or paced.
      let waited = false;
      const answer = await this.slots.take(job.data.webhookId, job.data.organizationId, holder, rateLimit, () => {
        waited = true;
        deliveryOutcomes.inc({ outcome: 'waiting' });
      });
      if (!('slot' in answer)) {
        if (!waited) deliveryOutcomes.inc({ outcome: 'parked' in answer ? 'parked' : 'paced' });
        if (token) await job.moveToDelayed(Date.now() + ('parked' in answer ? PARK_MS : answer.waitMs), token);
        throw new DelayedError();
      }
      slot = answer.slot;
      return owed ? await this.deliverCarried(job, slot, read, await owed) : await this.deliver(job, slot, read);
    } catch (error) {
      if (error instanceof DeliveryFailedError || error instanceof DelayedError || !token) throw error;
      deliveryOutcomes.inc({ outcome: 'postponed' });
      await job.moveToDelayed(Date.now() + STORAGE_RETRY_MS, token);
      throw new DelayedError();
    } finally {
      // Already given back when the request ended; this covers an attempt that stopped before it.
      await slot?.release('other');
    }
  }

  /**
   * Which of the deliveries a job carries it still owes. A job's first run owes them all; a job that ran
   * before (its worker died, or our storage failed, after it sent some) sends only those whose series are
   * not finished.
   */
  private async owedOf(job: Job<DeliveryJob>): Promise<(seriesId: string) => boolean> {
    if (job.attemptsStarted <= 1 && job.stalledCounter === 0) return () => true;
    const owed = await this.events.stillOwed(deliveriesOf(job.data).map((delivery) => delivery.seriesId));
    return (seriesId) => owed.has(seriesId);
  }

  /** The job goes on with its own delivery only: the ones it carried and still owes become jobs of their own. */
  private async handOn(job: Job<DeliveryJob>, owed: (seriesId: string) => boolean): Promise<void> {
    const { organizationId, webhookId, more = [] } = job.data;
    await this.queue.handOver(job.data, more.filter((delivery) => owed(delivery.seriesId)).map((delivery) => deliveryJob({ ...delivery, organizationId, webhookId })));
    await job.updateData({ ...job.data, more: undefined });
  }

  /** The webhook as read for this attempt, or read again when that read is older than WEBHOOK_READ_FRESH_MS. */
  private webhookOf(read: WebhookRead, job: DeliveryJob): Promise<SealedWebhookRecord | undefined> {
    return performance.now() - read.startedAt <= WEBHOOK_READ_FRESH_MS ? read.webhook : this.readWebhook(job).webhook;
  }

  /** Records an attempt with its series' progress: due again after the retry delay, unless it succeeded or was the last. */
  private record(owner: DeliveryJob, delivery: Pick<DeliveryJob, 'eventId' | 'eventType' | 'seriesId'>, attempt: number, outcome: WebhookOutcome): Promise<boolean> {
    const retries = !outcome.success && attempt < DELIVERY_ATTEMPTS;
    return this.deliveries.record({
      ...attemptRecord(outcome),
      webhookId: owner.webhookId,
      organizationId: owner.organizationId,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      attempt,
      seriesId: delivery.seriesId,
      nextRetryAt: retries ? new Date(Date.now() + retryDelay(this.config.retryDelays, attempt)) : undefined,
    });
  }

  /** Signs one delivery's body with the webhook's secrets and sends it. */
  private send(webhook: SealedWebhookRecord, delivery: Pick<DeliveryJob, 'body' | 'eventType' | 'eventId'>): Promise<WebhookOutcome> {
    return this.sender.send({
      url: webhook.url,
      secrets: signingSecrets(this.cipher, webhook),
      body: delivery.body,
      eventType: delivery.eventType,
      eventId: delivery.eventId,
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      responseLimit: RECORDED_RESPONSE_LIMIT,
    });
  }

  private readWebhook(job: Pick<DeliveryJob, 'organizationId' | 'webhookId'>): WebhookRead {
    const webhook = this.webhooks.read(job.organizationId, job.webhookId);
    // A job that is parked never looks at its read; a failure is seen by the attempt that does.
    webhook.catch(() => undefined);
    return { webhook, startedAt: performance.now() };
  }

  /** The slot is given back as soon as the receiver has answered (or not), while the attempt is recorded. */
  private async deliver(job: Job<DeliveryJob>, slot: HeldSlot, read: WebhookRead): Promise<AttemptResult> {
    const { webhookId, eventId, eventType, body, seriesId } = job.data;
    const webhook = await this.webhookOf(read, job.data);
    if (!stillWanted(webhook, job.data)) {
      if (seriesId) await this.events.finishSeries(seriesId);
      deliveryOutcomes.inc({ outcome: 'skipped' });
      return 'skipped';
    }
    const attempt = attemptNumber(job.data, job.attemptsMade);
    const outcome = await this.send(webhook, { body, eventType, eventId });
    const released = slot.release(outcome.success ? 'success' : outcome.timedOut ? 'timeout' : 'other');
    attemptDuration.observe({ success: String(outcome.success) }, outcome.durationMs / 1000);
    const exhausted = !outcome.success && attempt >= DELIVERY_ATTEMPTS;
    const recorded = await this.record(job.data, job.data, attempt, outcome);
    await released;
    if (!recorded) {
      deliveryOutcomes.inc({ outcome: 'skipped' });
      return 'skipped';
    }
    if (outcome.success) {
      deliveryOutcomes.inc({ outcome: 'success' });
      if (webhook.failed_at) await this.operational.recovered(webhookId);
      return 'delivered';
    }
    deliveryOutcomes.inc({ outcome: exhausted ? 'exhausted' : 'failure' });
    const errorMessage = outcome.errorMessage ?? 'Delivery failed';
    if (exhausted) await this.operational.failed(webhookId, errorMessage);
    throw new DeliveryFailedError(errorMessage, outcome.timedOut);
  }

  /**
   * The first attempts of a job's deliveries (its own, then the ones it carries), one after another on its
   * one slot, until CARRY_BUDGET_MS has passed or one times out; each recorded as its own attempt. A failed
   * one goes on as a job of its own at its second attempt, after the first retry delay; the ones not sent go
   * on at their first, in one job again (or each alone after a timeout). When the job's own delivery failed,
   * the job itself retries it (BullMQ's backoff), alone.
   */
  private async deliverCarried(job: Job<DeliveryJob>, slot: HeldSlot, read: WebhookRead, owed: (seriesId: string) => boolean): Promise<AttemptResult> {
    const { webhookId, organizationId } = job.data;
    const webhook = await this.webhookOf(read, job.data);
    const deliveries = deliveriesOf(job.data).filter((delivery) => owed(delivery.seriesId));
    const started = performance.now();
    const results: Array<Promise<CarriedResult>> = [];
    let slotOutcome: SlotOutcome = 'other';
    let attempts = 0;
    let next = 0;
    for (; next < deliveries.length; next += 1) {
      if (next > 0 && (slotOutcome === 'timeout' || performance.now() - started > CARRY_BUDGET_MS)) break;
      const delivery = deliveries[next];
      if (!stillWanted(webhook, job.data, delivery)) {
        results.push(this.events.finishSeries(delivery.seriesId).then(() => ({ delivery, recorded: false })));
        continue;
      }
      const outcome = await this.send(webhook, delivery);
      slot.attempted();
      attempts += 1;
      attemptDuration.observe({ success: String(outcome.success) }, outcome.durationMs / 1000);
      if (outcome.timedOut) slotOutcome = 'timeout';
      else if (outcome.success) slotOutcome = 'success';
      results.push(this.record(job.data, delivery, 1, outcome).then((recorded) => ({ delivery, outcome, recorded })));
    }
    const released = slot.release(slotOutcome, attempts);
    const ended = await Promise.all(results);
    await released;
    const failed = ended.filter((result) => result.recorded && result.outcome && !result.outcome.success);
    const own = failed.find((result) => result.delivery.seriesId === job.data.seriesId);
    const retries = failed.filter((result) => result !== own).map((result) => result.delivery);
    // Not sent: after a timeout each goes on alone (the webhook's slots then try them side by side), after the
    // budget together again.
    const [first, ...rest] = deliveries.slice(next);
    const later = !first ? [] : slotOutcome === 'timeout' ? [first, ...rest].map((delivery) => deliveryJob({ ...delivery, organizationId, webhookId })) : [deliveryJob({ ...first, organizationId, webhookId, ...(rest.length > 0 ? { more: rest } : {}) })];
    const firstRetryMs = retryDelay(this.config.retryDelays, 1);
    await this.queue.handOver(job.data, [...retries.map((delivery) => deliveryJob({ ...delivery, organizationId, webhookId, attemptsBefore: 1 }, firstRetryMs)), ...later]);
    for (const result of ended) deliveryOutcomes.inc({ outcome: !result.recorded || !result.outcome ? 'skipped' : result.outcome.success ? 'success' : 'failure' });
    const delivered = ended.some((result) => result.recorded && result.outcome?.success);
    if (delivered && webhook?.failed_at) await this.operational.recovered(webhookId);
    if (own?.outcome) {
      await job.updateData({ ...job.data, more: undefined });
      throw new DeliveryFailedError(own.outcome.errorMessage ?? 'Delivery failed', own.outcome.timedOut);
    }
    return delivered ? 'delivered' : 'skipped';
  }
}
