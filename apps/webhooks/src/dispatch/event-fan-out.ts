import { performance } from 'node:perf_hooks';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EVENTS_STREAM, EVENTS_SUBJECT_PREFIX, isUuid, subjectOf } from '@contracts';
import { eventPayloads, LargePayloads, PayloadGoneError } from '@platform/messaging';
import { BackgroundLoop, NATS_CONNECTION } from '@platform/service';
import { AckPolicy, ConsumerMessages, DeliverPolicy, JetStreamManager, JsMsg, NatsConnection, nanos } from 'nats';
import { eventsConsumed, jobsEnqueued, matchingSeconds, messagesKept } from '../delivery/delivery-metrics';
import { DeliveryQueue } from '../delivery/delivery-queue';
import { WebhooksApiConfig } from '../webhooks.config';
import { EventStoreRepository, StoredEvent, StoredMessage } from '../event-store/event-store.repository';
import { tableIdOf } from '../event-store/event-tables';
import { ParsedEvent, parseMessage, textOf } from './event-envelope';
import { fanOutJobs } from './fan-out-jobs';
import { AimRechecks } from '../webhooks/aim-rechecks';
import { ActiveSubscriptions } from './active-subscriptions';
import type { SubscriptionIndex } from './subscription-index';

const MAX_BATCH = 500;
/**
 * What one batch stores at most, by the messages' size: a message may carry up to 100 events (the creates
 * of a batch), so a count of messages alone would let one batch hold 50,000 events.
 */
const MAX_BATCH_BYTES = 256 * 1024;
/** Events a fan-out took and never acked (its process died) go to another replica after this long. */
const ACK_WAIT_MS = 15_000;
/**
 * How long one pull request lives. The server heartbeats every half of it; two missed heartbeats make the
 * client pull afresh. A pull held by a node that died (the consumer's leader moves on) is replaced within
 * about this long instead of the library's 30 s default, during which this replica took no event.
 */
const PULL_EXPIRES_MS = 5_000;
const RETRY_AFTER_FAILURE_MS = 1_000;
/**
 * The shortest time from one batch's start to the next: the events a relay publishes together (its own
 * batch, a few milliseconds' commits) arrive a message at a time, and are stored and queued together, their
 * deliveries to one webhook in one job (fanOutJobs), instead of the first one alone.
 */
const GATHER_MS = 2;
/** The header JetStream deduplicates by: the relays set it to the message's outbox entry id. */
const MESSAGE_ID_HEADER = 'Nats-Msg-Id';

/** Kinds read whatever the webhooks: a table's change rechecks the webhooks aimed at it, active or not (AimRechecks). */
const ALWAYS_READ: ReadonlySet<string> = new Set(['table.updated']);

interface Arrival {
  message: JsMsg;
  bytes: Uint8Array;
  /** The organization and kind its subject names. */
  about?: { organizationId: string; kind: string };
  messageId?: string;
}

/**
 * Each event with each webhook that wants it (the index answers them distinct), timed in CPU time, not
 * the clock: a process that waits for a core meanwhile is not charged for it. Organizations without an
 * active webhook have nothing to match, and nothing to time.
 */
function matchedPairs(
  events: Iterable<StoredEvent>,
  subscriptions: ReadonlyMap<string, SubscriptionIndex>,
  dataOf: ReadonlyMap<string, unknown>,
): Array<{ eventId: string; webhookId: string }> {
  const pairs: Array<{ eventId: string; webhookId: string }> = [];
  if ([...subscriptions.values()].every((index) => index.isEmpty)) return pairs;
  // The loop does no I/O, so its time on the monotonic clock is its CPU time (a getrusage call on either side cost
  // more than the matching of a batch without filters).
  const matchingStarted = performance.now();
  for (const event of events) {
    // Only the webhooks of the event's kind and table are looked at, and of those only the aims its row may meet are tested.
    for (const webhookId of subscriptions.get(event.organizationId)?.webhooksFor(event, dataOf.get(event.id)) ?? []) {
      pairs.push({ eventId: event.id, webhookId });
    }
  }
  matchingSeconds.inc((performance.now() - matchingStarted) / 1e3);
  return pairs;
}

/**
 * The durable JetStream consumer: keeps every event in the event store with one delivery series per
 * matching active webhook, adds jobs for the open series (a webhook's series of one batch together, see
 * fanOutJobs), and acks only once both are stored. Several processes share the durable consumer; an event
 * handed over twice finds its series already there, and gets a job of its own only when no job has it yet. Messages that arrive while a batch is being
 * stored form the next batch, so the batch size follows the load.
 */
@Injectable()
export class EventFanOut implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EventFanOut');
  private jsm?: JetStreamManager;
  private messages?: ConsumerMessages;
  private reading?: Promise<void>;
  private consuming = false;
  private pending: JsMsg[] = [];
  /** Stores what is pending, a batch at a time, woken by every message; GATHER_MS at least from one batch's start to the next. */
  private readonly batches = new BackgroundLoop(this.logger, () => this.storeNext(), {
    name: 'event-fan-out',
    owner: 'webhooks',
    failure: 'storing a batch of events failed',
    // Only a fallback: every message wakes the loop.
    idleMs: PULL_EXPIRES_MS,
    backoffMs: RETRY_AFTER_FAILURE_MS,
    minGapMs: GATHER_MS,
  });

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly subscriptions: ActiveSubscriptions,
    private readonly store: EventStoreRepository,
    private readonly deliveryQueue: DeliveryQueue,
    private readonly config: WebhooksApiConfig,
    private readonly rechecks: AimRechecks,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const durable = this.config.WEBHOOK_CONSUMER_NAME;
    const jsm = (this.jsm = await this.nc.jetstreamManager());
    await jsm.consumers.info(EVENTS_STREAM, durable).catch(() =>
      jsm.consumers
        .add(EVENTS_STREAM, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          // A new consumer starts at the present: the past was never promised to webhooks that exist now.
          deliver_policy: DeliverPolicy.New,
          filter_subject: `${EVENTS_SUBJECT_PREFIX}.>`,
          ack_wait: nanos(ACK_WAIT_MS),
          max_ack_pending: 20_000,
        })
        .catch(async (error: Error) => {
          // Another replica created it first.
          await jsm.consumers.info(EVENTS_STREAM, durable).catch(() => Promise.reject(error));
        }),
    );
    const consumer = await this.nc.jetstream().consumers.get(EVENTS_STREAM, durable);
    this.messages = await consumer.consume({ max_messages: MAX_BATCH, expires: PULL_EXPIRES_MS });
    this.consuming = true;
    this.batches.start();
    this.reading = this.read(this.messages);
    this.logger.log({ durable }, 'event fan-out consuming');
  }

  /** Throws unless messages are being read from a durable consumer JetStream still knows. */
  async probe(): Promise<void> {
    if (!this.consuming || !this.jsm) throw new Error('not consuming');
    await this.jsm.consumers.info(EVENTS_STREAM, this.config.WEBHOOK_CONSUMER_NAME);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.messages?.close().catch(() => undefined);
    await this.reading;
    // What was not stored is not acked: JetStream hands it to a replica again.
    await this.batches.stop();
  }

  private async read(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const message of messages) {
        this.pending.push(message);
        this.batches.wake();
      }
    } catch (error) {
      this.logger.error({ err: error }, 'event consumer stopped');
    } finally {
      this.consuming = false;
    }
  }

  /** Stores the batch at the front of what is pending; answers whether more is waiting. */
  private async storeNext(): Promise<boolean> {
    if (this.pending.length > 0) await this.fanOut(this.nextBatch());
    return this.pending.length > 0;
  }

  /** The pending messages at the front, up to MAX_BATCH of them and MAX_BATCH_BYTES (at least one). */
  private nextBatch(): JsMsg[] {
    let count = 0;
    let bytes = 0;
    while (count < this.pending.length && count < MAX_BATCH && (count === 0 || bytes + this.pending[count].data.length <= MAX_BATCH_BYTES)) {
      bytes += this.pending[count].data.length;
      count += 1;
    }
    return this.pending.splice(0, count);
  }

  /**
   * The body of an event too large for one message, from the store its claim check names; undefined
   * when it cannot be read now (the message alone comes back later) or ever (it is dropped and counted).
   */
  private async openLarge(message: JsMsg): Promise<Uint8Array | undefined> {
    try {
      return await eventPayloads(this.nc).open(message);
    } catch (error) {
      const gone = error instanceof PayloadGoneError;
      eventsConsumed.inc({ outcome: gone ? 'gone' : 'retry' });
      this.logger.warn({ err: error, subject: message.subject, seq: message.seq }, gone ? 'dropped an event whose body has expired' : 'could not read a large event; it comes back');
      if (gone) message.term('body expired');
      else message.nak(RETRY_AFTER_FAILURE_MS);
      return undefined;
    }
  }

  /**
   * A message, read as far as its subject and its id on the stream: the organization it is about, and the
   * id under which it is kept whole (both set by the relays that publish every event).
   */
  private async arrivalsOf(batch: JsMsg[]): Promise<Arrival[]> {
    const arrivals: Arrival[] = [];
    for (const message of batch) {
      const bytes = LargePayloads.isClaimCheck(message) ? await this.openLarge(message) : message.data;
      if (!bytes) continue;
      const messageId = message.headers?.get(MESSAGE_ID_HEADER);
      arrivals.push({ message, bytes, about: subjectOf(message.subject), messageId: isUuid(messageId) ? messageId : undefined });
    }
    return arrivals;
  }

  private async fanOut(batch: JsMsg[]): Promise<void> {
    const arrivals = await this.arrivalsOf(batch);
    if (arrivals.length === 0) return;
    const named = [...new Set(arrivals.flatMap(({ about }) => (about ? [about.organizationId] : [])))];
    let subscriptions: Map<string, SubscriptionIndex>;
    try {
      subscriptions = await this.subscriptions.of(named);
    } catch (error) {
      this.retry(error, arrivals.map((arrival) => arrival.message));
      return;
    }
    // A message of an organization that no active webhook listens to is kept whole: nothing in it is matched, nor read.
    const kept: StoredMessage[] = [];
    const keptMessages: JsMsg[] = [];
    const events: Array<{ message: JsMsg; parsed: ParsedEvent }> = [];
    // A message carries one event, or the events of creates written together: it is acked once for all.
    const messages: JsMsg[] = [];
    // The bodies of the batch's events as written, while every message has them.
    let bodies: string[] | undefined = [];
    for (const { message, bytes, about, messageId } of arrivals) {
      if (about && messageId && !ALWAYS_READ.has(about.kind) && subscriptions.get(about.organizationId)?.isEmpty !== false) {
        kept.push({ id: messageId, organizationId: about.organizationId, body: textOf(bytes) });
        keptMessages.push(message);
        continue;
      }
      const parsed = parseMessage(bytes);
      if (parsed.events.length > 0) {
        messages.push(message);
        for (const one of parsed.events) events.push({ message, parsed: one });
        if (parsed.bodies === undefined) bodies = undefined;
        else bodies?.push(parsed.bodies.slice(1, -1));
      } else {
        eventsConsumed.inc({ outcome: 'malformed' });
        this.logger.warn({ subject: message.subject, seq: message.seq }, 'dropped a message that is not an event');
        message.term('not an event');
      }
    }
    try {
      await this.store.storeMessages(kept);
      for (const message of keptMessages) message.ack();
      messagesKept.inc(kept.length);
    } catch (error) {
      this.retry(error, keptMessages);
    }
    if (events.length > 0) await this.fanOutEvents(events, messages, bodies, subscriptions);
  }

  /**
   * Stores the events with their series and queues their jobs; acks their messages once both are done. The
   * organizations' subscriptions come from their subjects; an event's organization its subject did not name is
   * looked up here.
   */
  private async fanOutEvents(
    events: Array<{ message: JsMsg; parsed: ParsedEvent }>,
    messages: JsMsg[],
    bodies: string[] | undefined,
    subscriptions: Map<string, SubscriptionIndex>,
  ): Promise<void> {
    try {
      const unnamed = [...new Set(events.map(({ parsed }) => parsed.event.organization_id))].filter((id) => !subscriptions.has(id));
      if (unnamed.length > 0) for (const [id, index] of await this.subscriptions.of(unnamed)) subscriptions.set(id, index);
      const stored = new Map<string, StoredEvent>();
      const dataOf = new Map<string, unknown>();
      for (const { parsed } of events) {
        const { event } = parsed;
        // The body is written only if a job or the store asks for it.
        stored.set(event.id, { id: event.id, organizationId: event.organization_id, eventType: event.event, tableId: tableIdOf(event), get body() { return parsed.body; } });
        dataOf.set(event.id, event.data);
      }
      // Each event once (stored is keyed by its id), each of its webhooks once (the index answers them distinct).
      const pairs = matchedPairs(stored.values(), subscriptions, dataOf);
      // As written when every event is there once; an event handed over twice in one batch is stored from its own body.
      const asWritten = bodies && stored.size === events.length ? `[${bodies.join(',')}]` : undefined;
      const series = await this.store.storeFanOut([...stored.values()], pairs, asWritten);
      const { jobs, again } = fanOutJobs(series, stored, this.config.WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK);
      jobsEnqueued.inc(await this.deliveryQueue.add(jobs, again));
      eventsConsumed.inc({ outcome: 'fanned_out' }, events.length);
      for (const message of messages) message.ack();
      this.rechecks.afterTableChanges(
        [...stored.values()].filter((event) => event.eventType === 'table.updated' && event.tableId !== null).map((event) => ({ organizationId: event.organizationId, tableId: event.tableId as string })),
      );
    } catch (error) {
      this.retry(error, messages, events.length);
    }
  }

  /** What could not be stored or queued comes back from JetStream. */
  private retry(error: unknown, messages: JsMsg[], events?: number): void {
    if (messages.length === 0) return;
    if (events !== undefined) eventsConsumed.inc({ outcome: 'retry' }, events);
    this.logger.warn({ err: error, messages: messages.length }, 'could not store or queue events; they come back');
    for (const message of messages) message.nak(RETRY_AFTER_FAILURE_MS);
  }
}
